import { ecdsaSign, ecdsaSignStep1, ecdsaSignStep2 } from './ecdsa-sign.js';
import { ecdsaPresign, ecdsaPresignDiscard, ecdsaTriples } from './ecdsa-steps.js';
import { emailJwks, emailOpenidConfiguration, emailRequestCode, emailVerifyCode } from './email-login.js';
import { keygen } from './keygen.js';
import { sessionAbort } from './sessions.js';
import { signCompletion } from './sign-completion.js';
import { ed25519Round1, ed25519Round2, ed25519Sign } from './sign-ed25519.js';
import { userCheck, userReshare, userSeedParts, userSignin, userSigninSilently, userSignout } from './user.js';

/**
 * Every route of tss-api, by name. `ecdsaSign` and `ed25519Sign` are the one-call forms that
 * `signCompletion` (the route mounted at /tss/v1/sign) answers when the body has no session.
 */
export const tssApi = {
  userSignin,
  userSigninSilently,
  userSignout,
  userCheck,
  userReshare,
  userSeedParts,
  emailRequestCode,
  emailVerifyCode,
  emailJwks,
  emailOpenidConfiguration,
  keygen,
  sessionAbort,
  ed25519Round1,
  ed25519Round2,
  ed25519Sign,
  ecdsaTriples,
  ecdsaPresign,
  ecdsaPresignDiscard,
  ecdsaSign,
  ecdsaSignStep1,
  ecdsaSignStep2,
  signCompletion,
} as const;

export { MAX_MSG_BYTES } from './sign-ed25519.js';
export type { Ed25519KeygenPart, Secp256k1KeygenPart } from './keygen.js';
export * from './types.js';
