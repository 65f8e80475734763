import type { BodyOf, ResponseOf } from '../route-contract.js';
import type { ecdsaSign, ecdsaSignStep1 } from './ecdsa-sign.js';
import type { ecdsaPresign, ecdsaTriples } from './ecdsa-steps.js';
import type { keygen } from './keygen.js';
import type { ed25519Round1, ed25519Round2, ed25519Sign } from './sign-ed25519.js';
import type { userCheck, userSeedParts, userSignin } from './user.js';

/** Spec §2 sign-in result, with tss-api's additions (user_id, auth_type, wallets). */
export type SignInResult = ResponseOf<typeof userSignin>;
/** One wallet of a user. */
export type WalletInfo = SignInResult['user']['wallets'][number];
export type Curve = WalletInfo['curve'];
/** Spec §2 user check result. */
export type UserCheckResult = ResponseOf<typeof userCheck>;
export type KeyshareNodeStatus = UserCheckResult['keyshare_node_meta']['nodes'][number];
export type WalletStatus = KeyshareNodeStatus['wallet_status'];
/** The server's seed part of one wallet (recovery and export, behind an ID token). */
export type ServerSeedPart = ResponseOf<typeof userSeedParts>['wallets'][number];
export type KeygenRequest = BodyOf<typeof keygen>;
export type Ed25519Round1Result = ResponseOf<typeof ed25519Round1>;
export type Ed25519Round2Result = ResponseOf<typeof ed25519Round2>;
export type Ed25519SignResult = ResponseOf<typeof ed25519Sign>;
/** The answer to one step of triple generation or presigning. */
export type StepReply = ResponseOf<typeof ecdsaTriples> & ResponseOf<typeof ecdsaPresign>;
export type EcdsaSignResult = ResponseOf<typeof ecdsaSign>;
export type EcdsaSignStep1Result = ResponseOf<typeof ecdsaSignStep1>;
export type SignOutput = EcdsaSignResult['sign_output'];
