import { equalBytes } from '@noble/curves/utils.js';
import { fromHex } from '@svc/crypto/hex';
import { tssApi } from '@svc/contract/client';
import { isSvcError, SvcError } from '../errors.js';
import type { Signers } from '../signers.js';
import type { AuthedPoster } from '../threshold/ed25519-threshold-signer.js';
import { Ed25519ThresholdSigner } from '../threshold/ed25519-threshold-signer.js';
import { Secp256k1ThresholdSigner } from '../threshold/secp256k1-threshold-signer.js';
import { lazyEcdsaSignStep } from '../threshold/lazy-ecdsa.js';
import { ed25519Packages } from './client-shares.js';
import type { EcdsaWiring } from './ecdsa-pools.js';
import { abortable, type FlowOptions } from './abort.js';
import { withSvcErrors } from './protocol-errors.js';
import { loadShare } from './stored-shares.js';
import { walletOf, type WalletContext } from './wallet-context.js';

/**
 * The threshold signers of the signed-in wallet (shares from storage). With a signal, every
 * signature they make stops at the next request once it fires (SvcError ABORTED); background
 * presignature fills are shared by all signers and are not cancelled.
 */
export function signers(ctx: WalletContext, options: FlowOptions = {}): Promise<Signers> {
  return abortable(options.signal, () => makeSigners(ctx, options.signal));
}

async function makeSigners(ctx: WalletContext, signal: AbortSignal | undefined): Promise<Signers> {
  const api = signal ? abortablePoster(ctx, signal) : ctx.api;
  const ed = await loadShare(ctx, 'ed25519');
  if (ed.curve !== 'ed25519') throw new SvcError('NO_LOCAL_SHARE', 'no ed25519 share');
  const { keyPackage, publicKeyPackage } = await withSvcErrors('reading the stored ed25519 share', () => ed25519Packages(ed));
  const ed25519 = new Ed25519ThresholdSigner(api, keyPackage, publicKeyPackage);
  if (!equalBytes(ed25519.publicKey, fromHex(walletOf(ctx.requireAccount().wallets, 'ed25519').public_key, 'public_key'))) {
    throw new SvcError('PROTOCOL_ERROR', 'the server\u2019s ed25519 wallet key differs from the key this device holds');
  }
  // The secp256k1 key (the Ethereum and Cosmos addresses) is the device's too, not the server's
  // word: the account is replaced by every token the server sends (sign-in, each refresh), so a
  // server naming another key would otherwise show its own addresses as the user's.
  // loadShare refuses a stored share of another key (PROTOCOL_ERROR). A custom ECDSA wiring may
  // keep no share on this device: then there is nothing to compare.
  await loadShare(ctx, 'secp256k1').catch((err: unknown) => {
    if (!(ctx.options.ecdsa && isSvcError(err, 'NO_LOCAL_SHARE'))) throw err;
  });
  const publicKey = fromHex(walletOf(ctx.requireAccount().wallets, 'secp256k1').public_key, 'public_key');
  const wiring = ctx.options.ecdsa?.({ publicKey, api: ctx.api }) ?? { ...ecdsaWiring(ctx), step: lazyEcdsaSignStep(api) };
  return { ed25519, secp256k1: new Secp256k1ThresholdSigner(publicKey, wiring.source, wiring.step) };
}

/**
 * The service calls of signers bound to the app's signal. session/abort is sent without it:
 * a signer aborts the server's session when a signature fails, and that call must go out
 * after the signal fired so the server does not keep the session open until it expires.
 */
function abortablePoster(ctx: WalletContext, signal: AbortSignal): AuthedPoster {
  return {
    post: <T>(path: string, body: unknown) =>
      path === tssApi.sessionAbort.path ? ctx.api.post<T>(path, body) : abortable(signal, () => ctx.api.post<T>(path, body, signal)),
  };
}

/**
 * Starts filling the secp256k1 presignature pool in the background (keygen, recovery and a
 * ready sign-in call it), so the first ECDSA signature does not wait for the offline phase.
 */
export function warmUp(ctx: WalletContext): void {
  if (ctx.options.presignaturePoolSize === 0) return;
  const account = ctx.account;
  if (!account?.wallets.some((w) => w.curve === 'secp256k1') || ctx.options.ecdsa) return;
  ecdsaWiring(ctx).source.replenish();
}

/** The default wiring: the wallet's pool (one per wallet key) and one-round-trip signing. */
function ecdsaWiring(ctx: WalletContext): EcdsaWiring {
  const wallet = walletOf(ctx.requireAccount().wallets, 'secp256k1');
  return ctx.ecdsaPools.wiring(wallet.wallet_id, wallet.public_key, async () => {
    const share = await loadShare(ctx, 'secp256k1');
    if (share.curve !== 'secp256k1') throw new SvcError('NO_LOCAL_SHARE', 'no secp256k1 share');
    return { identifier: 1, secretShare: fromHex(share.secret_share, 'secret_share', 32), publicKey: fromHex(share.public_key, 'public_key', 33) };
  });
}
