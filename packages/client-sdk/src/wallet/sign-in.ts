import { commitToNodes, IdTokenSession, KeyshareNodeClient } from '@svc/keyshare-client/nodes';
import { tssApi } from '@svc/contract/client';
import type { SignInResult, UserCheckResult } from '@svc/contract';
import { SvcError, isSvcError } from '../errors.js';
import { call } from '../http/call.js';
import { shareStorageKey } from '../storage/share-storage.js';
import { abortable, checkAborted, withSignal, type FlowOptions } from './abort.js';
import { readJwtClaims } from './jwt-claims.js';
import { asSvcError, withSvcErrors } from './protocol-errors.js';
import { readSession } from './session.js';
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

export interface SignOutOptions {
  /** Also erase this device's shares: the next sign-in here needs recover(). */
  forgetDevice?: boolean;
}

export interface SignOutResult {
  /** The server revoked the token (user/signout answered); false when there was no token or the call failed. */
  revoked: boolean;
  /** Why the revocation failed (offline, ...): the local session is cleared all the same. */
  error?: unknown;
}

/** Email login, step 1: the service mails a one-time code. */
export async function requestEmailCode(ctx: WalletContext, email: string, options: FlowOptions = {}): Promise<void> {
  const { signal } = options;
  await abortable(signal, () => call(ctx.http, tssApi.emailRequestCode, { email }, withSignal(signal)));
}

/** Email login, step 2: the code for an ID token (then pass it to signIn). */
export async function verifyEmailCode(ctx: WalletContext, email: string, code: string, options: FlowOptions = {}): Promise<string> {
  const { signal } = options;
  const data = await abortable(signal, () => call(ctx.http, tssApi.emailVerifyCode, { email, code }, withSignal(signal)));
  return data.id_token;
}

/**
 * Signs in with a login provider's ID token. The token is committed (with a fresh session
 * key) to the key share nodes BEFORE it is sent to the gateway, so nobody who sees it later
 * can use it at a node. Then user/signin; a user without a wallet gets `needs_keygen`, a
 * device without its shares `needs_recovery`. A stored share whose key differs from the
 * server's wallet key is PROTOCOL_ERROR.
 */
export function signIn(ctx: WalletContext, idToken: string, options: FlowOptions = {}): Promise<SignInOutcome> {
  return abortable(options.signal, () => signInSteps(ctx, idToken, options.signal));
}

async function signInSteps(ctx: WalletContext, idToken: string, signal: AbortSignal | undefined): Promise<SignInOutcome> {
  const claims = readJwtClaims(idToken);
  const { nodes, threshold } = await keyshareNodes(ctx, claims.email, signal);
  checkAborted(signal);
  const session = idTokenSession(idToken);
  ctx.id?.session.destroy();
  const outcomes = await withSvcErrors('committing the ID token to the key share nodes', () => commitToNodes(nodes, session, threshold));
  checkAborted(signal);
  ctx.id = {
    session,
    nodes: nodes.filter((n) => outcomes.find((o) => o.name === n.name)?.ok),
    threshold,
    ...(claims.email ? { email: claims.email } : {}),
    ...(claims.iat !== undefined ? { issuedAt: claims.iat } : {}),
  };

  let result: SignInResult;
  try {
    result = await call(ctx.http, tssApi.userSignin, undefined, { bearer: idToken, ...withSignal(signal) });
  } catch (err) {
    if (isSvcError(err, 'USER_NOT_FOUND') || isSvcError(err, 'WALLET_NOT_FOUND')) return { status: 'needs_keygen' };
    throw err;
  }
  // Before the token is kept: a server naming another key than the device holds (PROTOCOL_ERROR)
  // leaves no session and no account behind.
  const status = (await hasAllShares(ctx, result.user.wallets)) ? 'ready' : 'needs_recovery';
  ctx.api.setToken(result);
  await ctx.session.settled();
  if (status === 'ready') warmUp(ctx);
  return { status, user: result.user, check: await checkNodes(ctx, withSignal(signal)) };
}

/**
 * The session for this token. A token the nodes would refuse (not one canonical spelling,
 * IdTokenSession throws a TypeError) is the app's argument: SvcError like every SDK failure,
 * and thrown before the current session is ended.
 */
function idTokenSession(idToken: string): IdTokenSession {
  try {
    return IdTokenSession.create(idToken);
  } catch (cause) {
    throw new SvcError('INVALID_ARGUMENT', `this ID token cannot be used at the key share nodes: ${(cause as Error).message}`, 0, { cause });
  }
}

/** Continues with a stored service JWT (no ID token): refreshed through signin_silently. */
export function resume(ctx: WalletContext, jwt: string, options: FlowOptions = {}): Promise<SignInOutcome> {
  return abortable(options.signal, async () => {
    ctx.api.setJwt(jwt);
    const result = await ctx.api.refresh();
    await ctx.session.settled();
    const status = (await hasAllShares(ctx, result.user.wallets)) ? 'ready' : 'needs_recovery';
    if (status === 'ready') warmUp(ctx);
    return { status, user: result.user };
  });
}

/**
 * The session this storage holds from an earlier page load, continued (refreshed through
 * signin_silently); null when none is stored. A stored token the server refuses is
 * SESSION_EXPIRED (onSessionExpired is called and the stored session erased).
 */
export async function restore(ctx: WalletContext, options: FlowOptions = {}): Promise<SignInOutcome | null> {
  const stored = await abortable(options.signal, () => readSession(ctx.storage));
  return stored ? resume(ctx, stored.token, options) : null;
}

/**
 * Revokes the service token at the server (user/signout), then clears the session here (ID
 * token session, presignatures, stored session) whether or not the server could be reached.
 * `forgetDevice` also erases this device's shares.
 */
export async function signOut(ctx: WalletContext, options: SignOutOptions = {}): Promise<SignOutResult> {
  const token = ctx.api.jwt;
  const account = ctx.account ?? (await readSession(ctx.storage))?.user;
  let result: SignOutResult = { revoked: false };
  if (token) {
    try {
      await call(ctx.http, tssApi.userSignout, undefined, { bearer: token });
      result = { revoked: true };
    } catch (err) {
      result = { revoked: false, error: asSvcError(err, 'revoking the session') };
    }
  }
  ctx.id?.session.destroy();
  ctx.id = undefined;
  ctx.account = undefined;
  ctx.ecdsaPools.clear();
  ctx.api.clear();
  ctx.session.forget();
  await ctx.session.settled();
  if (options.forgetDevice && account) {
    for (const w of account.wallets) await ctx.storage.delete(shareStorageKey(w.wallet_id, w.curve));
  }
  return result;
}

/** user/check for the signed-in account (the nodes' state of its wallets). */
export function checkNodes(ctx: WalletContext, options: FlowOptions = {}): Promise<UserCheckResult> {
  const user = ctx.requireAccount();
  const { signal } = options;
  return abortable(signal, () => call(ctx.http, tssApi.userCheck, { email: user.email, auth_type: user.auth_type }, withSignal(signal)));
}

/** The key share nodes to commit to: configured, else as user/check lists them for the email. */
async function keyshareNodes(ctx: WalletContext, email: string | undefined, signal: AbortSignal | undefined): Promise<{ nodes: KeyshareNodeClient[]; threshold: number }> {
  let refs = ctx.options.keyshareNodes;
  let threshold = ctx.options.keyshareThreshold;
  if (!refs) {
    if (!email) throw new SvcError('INVALID_ARGUMENT', 'this ID token carries no email: configure keyshareNodes');
    const meta = (await call(ctx.http, tssApi.userCheck, { email }, withSignal(signal))).keyshare_node_meta;
    refs = meta.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint }));
    threshold ??= meta.threshold;
  }
  if (!threshold || threshold < 1 || threshold > refs.length) throw new SvcError('INVALID_ARGUMENT', 'keyshareThreshold must be between 1 and the number of nodes');
  const fetchFn = ctx.options.fetch as typeof fetch | undefined;
  return { nodes: refs.map((r) => new KeyshareNodeClient(r, fetchFn ? { fetch: fetchFn } : {})), threshold };
}
