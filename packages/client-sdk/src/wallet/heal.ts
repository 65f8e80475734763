import { expectSha256, fromHex } from '@svc/crypto';
import { expectWalletKey, healLostNodes } from '@svc/keyshare-client';
import { tssApi } from '@svc/contract/client';
import type { WalletInfo } from '@svc/contract';
import { SvcError } from '../errors.js';
import { call } from '../http/call.js';
import { abortable, checkAborted, withSignal, type FlowOptions } from './abort.js';
import { shareStorageKey } from '../storage/share-storage.js';
import { parseShare } from './client-shares.js';
import { withSvcErrors } from './protocol-errors.js';
import { checkNodes } from './sign-in.js';
import type { WalletContext } from './wallet-context.js';

/**
 * After a node's data loss (user/check: UNRECOVERABLE_DATA_LOSS), or for a backup a node never
 * got (reason MISSING_NODE_BACKUP: that node answers NOT_REGISTERED): the lost nodes' shares are
 * re-created from t healthy ones at the same x (the healthy shares stay valid), registered
 * with reshare, and reported with user/reshare. Needs a sign-in made after the node came
 * back (its commit table was lost with the data). Returns the healed node names.
 */
export function heal(ctx: WalletContext, options: FlowOptions = {}): Promise<string[]> {
  return abortable(options.signal, () => healSteps(ctx, options.signal));
}

async function healSteps(ctx: WalletContext, signal: AbortSignal | undefined): Promise<string[]> {
  const id = ctx.requireIdSession();
  const check = await checkNodes(ctx, withSignal(signal));
  const missing = check.reshare_reasons?.includes('MISSING_NODE_BACKUP') ?? false;
  const lost = check.keyshare_node_meta.nodes
    .filter((n) => n.wallet_status === 'UNRECOVERABLE_DATA_LOSS' || (missing && n.wallet_status === 'NOT_REGISTERED' && n.node_status === 'ONLINE'))
    .map((n) => n.name);
  if (lost.length === 0) return [];
  const notCommitted = lost.filter((name) => !id.nodes.some((n) => n.name === name));
  if (notCommitted.length > 0) throw new SvcError('NOT_SIGNED_IN', `sign in again: the ID token is not committed to ${notCommitted.join(', ')}`);
  const healed = new Set<string>();
  for (const wallet of ctx.requireAccount().wallets) {
    checkAborted(signal);
    const verify = await userPartCheck(ctx, wallet, signal);
    const { resharedKeyShares } = await withSvcErrors(`healing the ${wallet.curve} backup`, () =>
      healLostNodes({ nodes: id.nodes, lost, threshold: id.threshold, session: id.session, wallet: { curve: wallet.curve, publicKey: wallet.public_key }, verify }),
    );
    if (resharedKeyShares.length < lost.length) {
      const missing = lost.filter((name) => !resharedKeyShares.some((r) => r.name === name));
      throw new SvcError('KEYSHARE_ERROR', `healing the ${wallet.curve} backup: ${missing.join(', ')} refused the new share`);
    }
    checkAborted(signal);
    await call(ctx.http, tssApi.userReshare, { public_key: wallet.public_key, reshared_key_shares: resharedKeyShares }, { bearer: id.session.idToken, ...withSignal(signal) });
    for (const r of resharedKeyShares) healed.add(r.name);
  }
  return [...healed];
}

/** The check for a healed share: the stored digest of the user part, else the server part. */
async function userPartCheck(ctx: WalletContext, wallet: WalletInfo, signal: AbortSignal | undefined) {
  const stored = await ctx.storage.get(shareStorageKey(wallet.wallet_id, wallet.curve));
  const digest = stored ? parseShare(stored, wallet.curve).user_part_sha256 : undefined;
  if (digest) return expectSha256(fromHex(digest, 'user_part_sha256', 32));
  const parts = await call(ctx.http, tssApi.userSeedParts, undefined, { bearer: ctx.requireIdSession().session.idToken, ...withSignal(signal) });
  const part = parts.wallets.find((p) => p.wallet_id === wallet.wallet_id);
  if (!part) throw new SvcError('PROTOCOL_ERROR', `no server seed part for the ${wallet.curve} wallet`);
  return expectWalletKey(wallet.curve, wallet.public_key, fromHex(part.seed_part, 'seed_part'));
}
