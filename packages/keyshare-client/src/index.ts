// @svc/keyshare-client: the client side of the key share node protocol (docs/keyshare.md).
// Browser and Node: fetch, @noble and @svc/crypto only.
export * from './protocol.js';
export { IdTokenSession } from './session.js';
export {
  KeyshareNodeClient,
  KeyshareNodeError,
  type KeyshareNodeRef,
  type KeyshareNodeClientOptions,
  type NodeInfo,
  type WalletRef,
} from './node-client.js';
export * from './backup.js';
export * from './seed-parts.js';
