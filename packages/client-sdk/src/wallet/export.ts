import { fromHex, toHex } from '@svc/crypto';
import { SvcError } from '../errors.js';
import { abortable, withSignal, type FlowOptions } from './abort.js';
import { readJwtClaims } from './jwt-claims.js';
import { recoverSeeds } from './recovery.js';
import { signIn } from './sign-in.js';
import type { WalletContext } from './wallet-context.js';

export interface ExportedKeys {
  ethereum?: { privateKey: `0x${string}`; publicKey: string };
  solana?: { secretKey: Uint8Array; publicKey: string };
}

/**
 * The full private keys, behind a fresh sign-in: `idToken` must have been issued within
 * exportMaxAgeSeconds; it is committed and signed in with like any sign-in. Ethereum: the
 * 32-byte private key as 0x-hex; Solana: the 64-byte keypair (seed || public key).
 */
export function exportKeys(ctx: WalletContext, idToken: string, options: FlowOptions = {}): Promise<ExportedKeys> {
  return abortable(options.signal, () => exportSteps(ctx, idToken, options.signal));
}

async function exportSteps(ctx: WalletContext, idToken: string, signal: AbortSignal | undefined): Promise<ExportedKeys> {
  const iat = readJwtClaims(idToken).iat;
  const maxAge = ctx.options.exportMaxAgeSeconds ?? 300;
  if (iat === undefined || Date.now() / 1000 - iat > maxAge) throw new SvcError('NOT_SIGNED_IN', `key export needs an ID token issued within ${maxAge} s`);
  await signIn(ctx, idToken, withSignal(signal));
  const seeds = await recoverSeeds(ctx, signal);
  const out: ExportedKeys = {};
  for (const { wallet, seed } of seeds) {
    if (wallet.curve === 'secp256k1') out.ethereum = { privateKey: `0x${toHex(seed)}`, publicKey: wallet.public_key };
    else {
      const secretKey = new Uint8Array(64);
      secretKey.set(seed, 0);
      secretKey.set(fromHex(wallet.public_key, 'public_key'), 32);
      out.solana = { secretKey, publicKey: wallet.public_key };
    }
    seed.fill(0);
  }
  return out;
}
