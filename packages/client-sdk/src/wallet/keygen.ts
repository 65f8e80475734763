import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '@svc/crypto';
import { backupUserPart, splitWalletSeed } from '@svc/keyshare-client';
import { tssApi } from '@svc/contract/client';
import type { Curve, KeygenRequest, SignInResult } from '@svc/contract';
import { SvcError } from '../errors.js';
import { call } from '../http/call.js';
import { abortable, checkAborted, withSignal, type FlowOptions } from './abort.js';
import { shareStorageKey } from '../storage/share-storage.js';
import { serialiseShare } from './client-shares.js';
import { dealEd25519, dealSecp256k1Key } from './deal-keys.js';
import { withSvcErrors } from './protocol-errors.js';
import { warmUp } from './signing.js';
import { walletOf, type WalletContext } from './wallet-context.js';

/**
 * Creates the wallet: per curve the client deals keygen_1/keygen_2 from a fresh seed, splits
 * the seed 2-of-2, backs the user part up t-of-n on the key share nodes (first, so no wallet
 * exists without its backup), sends keygen_2 + the server part to /tss/v1/keygen, and keeps
 * keygen_1 in storage. Needs signIn() first (its answer was `needs_keygen`).
 *
 * An abort is honoured up to the keygen call: once the server holds the wallet the shares are
 * stored whatever the signal says (stopping there would only force a recovery), and every
 * share is serialised before the first write, so storage never holds half a wallet.
 */
export function keygen(ctx: WalletContext, curves: Curve[], options: FlowOptions = {}): Promise<SignInResult['user']> {
  return abortable(options.signal, () => keygenSteps(ctx, curves, options.signal));
}

async function keygenSteps(ctx: WalletContext, curves: Curve[], signal: AbortSignal | undefined): Promise<SignInResult['user']> {
  const id = ctx.requireIdSession();
  const dealt = curves.map((c) => (c === 'ed25519' ? dealEd25519() : dealSecp256k1Key()));
  let body: KeygenRequest = {};
  const digests = new Map<Curve, string>();
  try {
    for (const key of dealt) {
      checkAborted(signal);
      const { serverPart, userPart } = await splitWalletSeed(key.seed);
      body = { ...body, ...key.keygenPart(toHex(serverPart)) };
      digests.set(key.curve, toHex(sha256(userPart)));
      await withSvcErrors(`backing up the ${key.curve} seed`, () =>
        backupUserPart({ nodes: id.nodes, threshold: id.threshold, session: id.session, wallet: { curve: key.curve, publicKey: toHex(key.publicKey) }, userPart }),
      );
      userPart.fill(0);
      serverPart.fill(0);
    }
    checkAborted(signal);
    const result = await call(ctx.http, tssApi.keygen, body, { bearer: id.session.idToken, ...withSignal(signal) });
    const writes: [string, string][] = [];
    for (const key of dealt) {
      const wallet = walletOf(result.user.wallets, key.curve);
      if (wallet.public_key !== toHex(key.publicKey)) {
        throw new SvcError('PROTOCOL_ERROR', `keygen answered ${key.curve} public key ${wallet.public_key}, the dealt key is ${toHex(key.publicKey)}`);
      }
      const share = key.clientShare(wallet.wallet_id);
      const digest = digests.get(key.curve);
      writes.push([shareStorageKey(wallet.wallet_id, key.curve), serialiseShare(digest ? { ...share, user_part_sha256: digest } : share)]);
    }
    for (const [storageKey, value] of writes) await ctx.storage.set(storageKey, value);
    ctx.api.setToken(result);
    await ctx.session.settled();
    warmUp(ctx);
    return result.user;
  } finally {
    for (const key of dealt) key.seed.fill(0);
  }
}
