import { authClaims } from '@svc/auth';
import { AppError } from '@svc/envelope';
import { tssApi, type ResponseOf } from '@svc/contract';
import { bindRoute, validatorFor, type RouteDef } from '@svc/http';
import type { TssGuards } from '../../kernel/guards.js';
import type { SessionsService } from '../../kernel/sessions/service.js';

export const SIGN_PATH = tssApi.signCompletion.path;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The routes whose bodies POST /tss/v1/sign accepts, each answered by that route's own rules and handler. */
export interface SignCompletionVariants {
  /** No session_id: ECDSA in one call (a pooled presignature and the client share). */
  ecdsaOneCall: RouteDef;
  /** No session_id and a commitment1: Ed25519 in one call (both FROST rounds). */
  ed25519OneCall: RouteDef;
  /** session_id of an ECDSA sign session (from /tss/v1/sign/step1): step 2. */
  ecdsaStep2: RouteDef;
  /** session_id of an Ed25519 session (from /tss/v2/sign_ed25519/round1): round 2. */
  ed25519Round2: RouteDef;
}

/**
 * POST /tss/v1/sign as spec §4.2 describes it: "completes an ECDSA or EdDSA signature". The body
 * is told apart by its session: none is a signature in one call, Ed25519 when the body carries
 * commitment1 (an ECDSA body never does), else ECDSA; an existing session of the caller picks the
 * completion of its kind, Ed25519 round 2 or ECDSA step 2. The body is then checked
 * with the rules of that route and answered by its handler, so this path and the dedicated ones
 * (which stay as they are, /tss/v2 included) cannot drift apart.
 */
export function signCompletionRoute(variants: SignCompletionVariants, sessions: Pick<SessionsService, 'kindOf'>, guards: TssGuards): RouteDef {
  const all = [variants.ecdsaOneCall, variants.ed25519OneCall, variants.ecdsaStep2, variants.ed25519Round2];
  // Built once: a validator compiles its rules.
  const validators = new Map(all.map((route) => [route, validatorFor(route)]));

  async function variantOf(body: unknown, userId: string): Promise<RouteDef> {
    const fields = typeof body === 'object' && body !== null ? (body as { session_id?: unknown; commitment1?: unknown }) : {};
    const sessionId = fields.session_id;
    if (sessionId === undefined || sessionId === null) return fields.commitment1 === undefined ? variants.ecdsaOneCall : variants.ed25519OneCall;
    if (typeof sessionId !== 'string' || !UUID.test(sessionId)) throw new AppError('INVALID_REQUEST', 'session_id must be a UUID');
    const kind = await sessions.kindOf(sessionId, userId);
    // Another user's session, or one that is not a signature: not found, as on the dedicated routes.
    if (kind === 'SIGN_ED25519') return variants.ed25519Round2;
    if (kind === 'SIGN_ECDSA') return variants.ecdsaStep2;
    throw new AppError('SESSION_NOT_FOUND', 'Session not found');
  }

  return bindRoute(tssApi.signCompletion, {
    guards: [guards.apiKey, guards.userJwt],
    handler: async (req, res) => {
      const variant = await variantOf(req.body, authClaims(res).sub);
      await validators.get(variant)!(req, res, () => undefined);
      // Each variant is bound to its own contract, whose answer is one of this one's.
      return variant.handler(req, res) as Promise<ResponseOf<typeof tssApi.signCompletion>>;
    },
  });
}
