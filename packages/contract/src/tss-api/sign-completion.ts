import type { ErrorCode } from '@svc/envelope';
import { defineContract, requestBodySchemaOf } from '../route-contract.js';
import { tssApiPaths } from '../paths.js';
import { ecdsaSign, ecdsaSignStep2 } from './ecdsa-sign.js';
import { ed25519Round2, ed25519Sign } from './sign-ed25519.js';

/** The contracts whose bodies POST /tss/v1/sign accepts, in the order its documentation lists them. */
const VARIANTS = [ecdsaSign, ed25519Sign, ecdsaSignStep2, ed25519Round2] as const;

/**
 * POST /tss/v1/sign as spec §4.2 describes it: "completes an ECDSA or EdDSA signature". The body
 * is told apart by its session: none is a signature in one call, Ed25519 (`ed25519Sign`) when it
 * carries `commitment1`, else ECDSA (`ecdsaSign`); an existing session of the caller picks the
 * completion of its kind, Ed25519 round 2 or ECDSA step 2, checked and answered by that route's
 * own contract.
 */
export const signCompletion = defineContract({
  ...tssApiPaths.signCompletion,
  summary: 'Complete an ECDSA or an Ed25519 signature',
  description:
    'One path for the four ways a signature is completed, told apart by `session_id`. Without it (omitted or null), a signature in ' +
    'one call: Ed25519 when the body has `commitment1` (body {msg, commitment1}, answering session_id, commitment0 and ' +
    'signature_share0), else ECDSA, the body of /tss/v1/sign/step1 with `msgs_1.signature_share` required, answering session_id, ' +
    'msgs_0 and sign_output {r, s, recovery_id}. With the session_id of an Ed25519 session (from /tss/v2/sign_ed25519/round1): round 2, body {session_id, ' +
    'commitment1}, answering {signature_share0}; the client aggregates the 64-byte signature. With the session_id of an ECDSA sign ' +
    'session (from /tss/v1/sign/step1): step 2, body {session_id, msg, msgs_1: {signature_share}}, answering {session_id, sign_output}. ' +
    'Each form is checked and answered exactly as on /tss/v2/sign_ed25519/round2 and /tss/v1/sign/step2. A session_id that is no ' +
    'signing session of the caller: 404 SESSION_NOT_FOUND.',
  tags: ['signing'],
  auth: ['apiKey', 'userJwt'],
  bodySchema: { oneOf: VARIANTS.map((route) => requestBodySchemaOf(route) ?? { type: 'object' }) },
  errors: [...new Set<ErrorCode>(['SESSION_NOT_FOUND', ...VARIANTS.flatMap((r) => r.errors)])],
  // anyOf, not oneOf: an answer of ECDSA in one call also has every member step 2's answer requires.
  response: { anyOf: [ecdsaSign.response, ed25519Sign.response, ecdsaSignStep2.response, ed25519Round2.response] },
});
