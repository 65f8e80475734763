import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex, toHex } from '@svc/crypto';
import { combineWalletSeed, expectWalletKey, recoverUserPart } from '@svc/keyshare-client';
import { tssApi } from '@svc/contract/client';
import type { WalletInfo } from '@svc/contract';
import { SvcError } from '../errors.js';
import { call } from '../http/call.js';
import { abortable, checkAborted, withSignal, type FlowOptions } from './abort.js';
import { shareStorageKey } from '../storage/share-storage.js';
import { serialiseShare } from './client-shares.js';
import { dealFromSeed } from './deal-keys.js';
import { withSvcErrors } from './protocol-errors.js';
import { warmUp } from './signing.js';
import type { WalletContext } from './wallet-context.js';

/** One wallet's seed, rebuilt from the server's seed part and t user-part shares. */
export interface RecoveredSeed {
  wallet: WalletInfo;
  seed: Uint8Array;
  userPartDigest: string;
}

/**
 * A new device (or cleared storage): the server's seed part (behind the ID token) and t
 * user-part shares from the key share nodes give each seed, checked against the wallet key;
 * the deterministic dealing re-derives keygen_1 (and the secp256k1 f(1)) from it.
 */
export function recover(ctx: WalletContext, options: FlowOptions = {}): Promise<void> {
  return abortable(options.signal, () => recoverSteps(ctx, options.signal));
}

async function recoverSteps(ctx: WalletContext, signal: AbortSignal | undefined): Promise<void> {
  const seeds = await recoverSeeds(ctx, signal);
  try {
    // Every share is dealt and checked before the first write: storage never holds half a wallet.
    const writes: [string, string][] = [];
    for (const { wallet, seed, userPartDigest } of seeds) {
      const key = dealFromSeed(wallet.curve, seed);
      if (toHex(key.publicKey) !== wallet.public_key) throw new SvcError('PROTOCOL_ERROR', `the recovered ${wallet.curve} key is not the wallet key`);
      writes.push([shareStorageKey(wallet.wallet_id, wallet.curve), serialiseShare({ ...key.clientShare(wallet.wallet_id), user_part_sha256: userPartDigest })]);
    }
    checkAborted(signal);
    for (const [storageKey, value] of writes) await ctx.storage.set(storageKey, value);
    warmUp(ctx);
  } finally {
    for (const s of seeds) s.seed.fill(0);
  }
}

/** The seed of every wallet of the account (the caller zeroes them). */
export async function recoverSeeds(ctx: WalletContext, signal?: AbortSignal): Promise<RecoveredSeed[]> {
  const id = ctx.requireIdSession();
  const account = ctx.requireAccount();
  const parts = await call(ctx.http, tssApi.userSeedParts, undefined, { bearer: id.session.idToken, ...withSignal(signal) });
  const seeds: RecoveredSeed[] = [];
  try {
    for (const wallet of account.wallets) {
      checkAborted(signal);
      const part = parts.wallets.find((p) => p.curve === wallet.curve && p.wallet_id === wallet.wallet_id);
      if (!part) throw new SvcError('PROTOCOL_ERROR', `no server seed part for the ${wallet.curve} wallet`);
      const serverPart = await withSvcErrors('reading the server seed part', () => fromHex(part.seed_part, 'seed_part'));
      const ref = { curve: wallet.curve, publicKey: wallet.public_key };
      const { userPart } = await withSvcErrors(`recovering the ${wallet.curve} user part`, () =>
        recoverUserPart({ nodes: id.nodes, threshold: id.threshold, session: id.session, wallet: ref, verify: expectWalletKey(wallet.curve, wallet.public_key, serverPart) }),
      );
      const seed = await withSvcErrors('combining the seed', () => combineWalletSeed(wallet.curve, wallet.public_key, { serverPart, userPart }));
      seeds.push({ wallet, seed, userPartDigest: toHex(sha256(userPart)) });
      userPart.fill(0);
      serverPart.fill(0);
    }
  } catch (err) {
    for (const s of seeds) s.seed.fill(0);
    throw err;
  }
  return seeds;
}
