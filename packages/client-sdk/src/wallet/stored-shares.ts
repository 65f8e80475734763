import type { Curve, WalletInfo } from '@svc/contract';
import { SvcError } from '../errors.js';
import { shareStorageKey } from '../storage/share-storage.js';
import { parseShare, type ClientShare } from './client-shares.js';
import { walletOf, type WalletContext } from './wallet-context.js';

/** Whether this device holds the share of every wallet; a stored key other than the server's is PROTOCOL_ERROR. */
export async function hasAllShares(ctx: WalletContext, wallets: WalletInfo[]): Promise<boolean> {
  for (const w of wallets) {
    const stored = await ctx.storage.get(shareStorageKey(w.wallet_id, w.curve));
    if (!stored) return false;
    const share = parseShare(stored, w.curve);
    // The device's key is the reference: a server naming another key is not trusted.
    if (share.public_key !== w.public_key) {
      throw new SvcError('PROTOCOL_ERROR', `the server\u2019s ${w.curve} wallet key ${w.public_key} differs from the key this device holds (${share.public_key})`);
    }
  }
  return true;
}

/** The stored share of the signed-in account's wallet on `curve`. */
export async function loadShare(ctx: WalletContext, curve: Curve): Promise<ClientShare> {
  const wallet = walletOf(ctx.requireAccount().wallets, curve);
  const stored = await ctx.storage.get(shareStorageKey(wallet.wallet_id, curve));
  if (!stored) throw new SvcError('NO_LOCAL_SHARE', `this device holds no ${curve} share: recover() first`);
  const share = parseShare(stored, curve);
  if (share.public_key !== wallet.public_key) throw new SvcError('PROTOCOL_ERROR', `the server\u2019s ${curve} wallet key differs from the key this device holds`);
  return share;
}
