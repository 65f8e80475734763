import { commitToNodes, IdTokenSession, KeyshareNodeClient } from '@svc/keyshare-client';
import { tssApi } from '@svc/contract/client';
import type { SignInResult, UserCheckResult } from '@svc/contract';
import { SvcError, isSvcError } from '../errors.js';
import { call } from '../http/call.js';
import { readJwtClaims } from './jwt-claims.js';
import { withSvcErrors } from './protocol-errors.js';
import { warmUp } from './signing.js';
import { hasAllShares } from './stored-shares.js';
import type { WalletContext } from './wallet-context.js';

export type SignInStatus = 'ready' | 'needs_keygen' | 'needs_recovery';

export interface SignInOutcome {
  status: SignInStatus;
  /** The account (absent before keygen). */
  user?: SignInResult['user'];
  /** The key share nodes' state for this user; `needs_reshare` means heal() should run. */
  check?: UserCheckResult;
}

/** Email login, step 1: the service mails a one-time code. */
export async function requestEmailCode(ctx: WalletContext, email: string): Promise<void> {
  await call(ctx.http, tssApi.emailRequestCode, { email });
}

/** Email login, step 2: the code for an ID token (then pass it to signIn). */
export async function verifyEmailCode(ctx: WalletContext, email: string, code: string): Promise<string> {
  const data = await call(ctx.http, tssApi.emailVerifyCode, { email, code });
  return data.id_token;
}

/**
 * Signs in with a login provider's ID token. The token is committed (with a fresh session
 * key) to the key share nodes BEFORE it is sent to the gateway, so nobody who sees it later
 * can use it at a node. Then user/signin; a user without a wallet gets `needs_keygen`, a
 * device without its shares `needs_recovery`. A stored share whose key differs from the
 * server's wallet key is PROTOCOL_ERROR.
 */
export async function signIn(ctx: WalletContext, idToken: string): Promise<SignInOutcome> {
  const claims = readJwtClaims(idToken);
  const { nodes, threshold } = await keyshareNodes(ctx, claims.email);
  ctx.id?.session.destroy();
  const session = IdTokenSession.create(idToken);
  const outcomes = await withSvcErrors('committing the ID token to the key share nodes', () => commitToNodes(nodes, session, threshold));
  ctx.id = {
    session,
    nodes: nodes.filter((n) => outcomes.find((o) => o.name === n.name)?.ok),
    threshold,
    ...(claims.email ? { email: claims.email } : {}),
    ...(claims.iat !== undefined ? { issuedAt: claims.iat } : {}),
  };

  let result: SignInResult;
  try {
    result = await call(ctx.http, tssApi.userSignin, undefined, { bearer: idToken });
  } catch (err) {
    if (isSvcError(err, 'USER_NOT_FOUND') || isSvcError(err, 'WALLET_NOT_FOUND')) return { status: 'needs_keygen' };
    throw err;
  }
  ctx.api.setToken(result);
  const status = (await hasAllShares(ctx, result.user.wallets)) ? 'ready' : 'needs_recovery';
  if (status === 'ready') warmUp(ctx);
  return { status, user: result.user, check: await checkNodes(ctx) };
}

/** Continues with a stored service JWT (no ID token): refreshed through signin_silently. */
export async function resume(ctx: WalletContext, jwt: string): Promise<SignInOutcome> {
  ctx.api.setJwt(jwt);
  const result = await ctx.api.refresh();
  const status = (await hasAllShares(ctx, result.user.wallets)) ? 'ready' : 'needs_recovery';
  if (status === 'ready') warmUp(ctx);
  return { status, user: result.user };
}

export function signOut(ctx: WalletContext): void {
  ctx.id?.session.destroy();
  ctx.id = undefined;
  ctx.account = undefined;
  ctx.ecdsaPools.clear();
  ctx.api.clear();
}

/** user/check for the signed-in account (the nodes' state of its wallets). */
export async function checkNodes(ctx: WalletContext): Promise<UserCheckResult> {
  const user = ctx.requireAccount();
  return call(ctx.http, tssApi.userCheck, { email: user.email, auth_type: user.auth_type });
}

/** The key share nodes to commit to: configured, else as user/check lists them for the email. */
async function keyshareNodes(ctx: WalletContext, email: string | undefined): Promise<{ nodes: KeyshareNodeClient[]; threshold: number }> {
  let refs = ctx.options.keyshareNodes;
  let threshold = ctx.options.keyshareThreshold;
  if (!refs) {
    if (!email) throw new SvcError('INVALID_ARGUMENT', 'this ID token carries no email: configure keyshareNodes');
    const meta = (await call(ctx.http, tssApi.userCheck, { email })).keyshare_node_meta;
    refs = meta.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));
    threshold ??= meta.threshold;
  }
  if (!threshold || threshold < 1 || threshold > refs.length) throw new SvcError('INVALID_ARGUMENT', 'keyshareThreshold must be between 1 and the number of nodes');
  const fetchFn = ctx.options.fetch as typeof fetch | undefined;
  return { nodes: refs.map((r) => new KeyshareNodeClient(r, fetchFn ? { fetch: fetchFn } : {})), threshold };
}
