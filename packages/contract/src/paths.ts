/**
 * Where each route is: its method and path, declared once. The full contracts (tss-api/,
 * keyshare-node/) take them from here, and a client that only calls the routes imports these
 * tables through `@svc/contract/client` without the contracts' validation rules and
 * descriptions (tens of KiB in a browser bundle).
 */

/** tss-api's one-call ECDSA sign and the sign-completion route share this path (its handler tells the bodies apart). */
const SIGN_PATH = '/tss/v1/sign';

export const tssApiPaths = {
  userSignin: { method: 'post', path: '/tss/v1/user/signin' },
  userSigninSilently: { method: 'post', path: '/tss/v1/user/signin_silently' },
  userSignout: { method: 'post', path: '/tss/v1/user/signout' },
  userCheck: { method: 'post', path: '/tss/v1/user/check' },
  userReshare: { method: 'post', path: '/tss/v1/user/reshare' },
  userSeedParts: { method: 'post', path: '/tss/v1/user/seed_parts' },
  emailRequestCode: { method: 'post', path: '/tss/v1/user/email/request_code' },
  emailVerifyCode: { method: 'post', path: '/tss/v1/user/email/verify_code' },
  emailJwks: { method: 'get', path: '/tss/v1/.well-known/jwks.json' },
  emailOpenidConfiguration: { method: 'get', path: '/tss/v1/.well-known/openid-configuration' },
  keygen: { method: 'post', path: '/tss/v1/keygen' },
  sessionAbort: { method: 'post', path: '/tss/v1/session/abort' },
  ed25519Round1: { method: 'post', path: '/tss/v2/sign_ed25519/round1' },
  ed25519Round2: { method: 'post', path: '/tss/v2/sign_ed25519/round2' },
  ecdsaTriples: { method: 'post', path: '/tss/v1/triples' },
  ecdsaPresign: { method: 'post', path: '/tss/v1/presign' },
  ecdsaPresignDiscard: { method: 'post', path: '/tss/v1/presign/discard' },
  ecdsaSign: { method: 'post', path: SIGN_PATH },
  ed25519Sign: { method: 'post', path: SIGN_PATH },
  ecdsaSignStep1: { method: 'post', path: '/tss/v1/sign/step1' },
  ecdsaSignStep2: { method: 'post', path: '/tss/v1/sign/step2' },
  signCompletion: { method: 'post', path: SIGN_PATH },
} as const;

export const keyshareNodePaths = {
  commitIdToken: { method: 'post', path: '/commit/v1/id-token' },
  keyshareRegister: { method: 'post', path: '/keyshare/v1/register' },
  keyshareFetch: { method: 'post', path: '/keyshare/v1/keyshare' },
  keyshareCheck: { method: 'post', path: '/keyshare/v1/check' },
  nodeInfo: { method: 'get', path: '/keyshare/v1/info' },
} as const;
