/**
 * `@svc/keyshare-client/nodes`: talking to the key share nodes (request signing, the ID-token
 * session, the node client, the commit every sign-in makes) without the backup, recovery and
 * heal code and the Shamir splitting under it: what a returning user's sign-in needs.
 */
export * from './protocol.js';
export { canonicalIdToken, idTokenCommitKey, isCanonicalBase64url, NonCanonicalIdTokenError, ID_TOKEN_COMMIT_DOMAIN } from './id-token-commit.js';
export { IdTokenSession } from './session.js';
export {
  KeyshareNodeClient,
  KeyshareNodeError,
  type KeyshareNodeRef,
  type KeyshareNodeClientOptions,
  type NodeInfo,
  type WalletRef,
} from './node-client.js';
export * from './outcomes.js';
