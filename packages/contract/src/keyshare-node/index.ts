import type { ResponseOf } from '../route-contract.js';
import { commitIdToken, keyshareCheck, keyshareFetch, keyshareRegister, nodeInfo } from './routes.js';

/** Every route of a key share node, by name (what @svc/keyshare-client calls). */
export const keyshareNode = { commitIdToken, keyshareRegister, keyshareFetch, keyshareCheck, nodeInfo } as const;

export type NodeInfo = ResponseOf<typeof nodeInfo>;
export type StoredKeyShare = ResponseOf<typeof keyshareFetch>;

export { CURVES, PUBLIC_KEY_BYTES, MAX_SHARE_BYTES, isValidPublicKey, walletFields, hex64 } from './fields.js';
