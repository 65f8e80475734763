/**
 * A user's first signatures through the gateway started from its image, with the SDK as a
 * frontend uses it: sign-in with an ID token (committed to every key share node first), keygen
 * of both curves with the backups on the nodes, then one Ed25519 (FROST) and one ECDSA
 * (two-party, from a presignature) signature, each verified with @noble/curves.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { MemoryShareStorage, SvcWallet, type FetchLike } from '@svc/client-sdk';

export interface JourneyResult {
  keygenMs: number;
  ed25519Ms: number;
  ecdsaMs: number;
}

export async function signingJourney(options: { gatewayUrl: string; apiKey: string; idToken: string; fetch: FetchLike }): Promise<JourneyResult> {
  const wallet = new SvcWallet({ gatewayUrl: options.gatewayUrl, apiKey: options.apiKey, storage: new MemoryShareStorage(), fetch: options.fetch });
  const signedIn = await wallet.signIn(options.idToken);
  if (signedIn.status !== 'needs_keygen') throw new Error(`a new user should need keygen, got ${signedIn.status}`);
  let t = performance.now();
  const user = await wallet.keygen();
  const keygenMs = performance.now() - t;
  if (user.wallets.length !== 2) throw new Error(`keygen made ${user.wallets.length} wallets, expected ed25519 and secp256k1`);
  const signers = await wallet.signers();

  const message = randomBytes(100);
  t = performance.now();
  const ed = await signers.ed25519.sign(message);
  const ed25519Ms = performance.now() - t;
  if (!ed25519.verify(ed, message, signers.ed25519.publicKey)) throw new Error('the Ed25519 signature does not verify');

  const digest = createHash('sha256').update(message).digest();
  t = performance.now();
  const ecdsa = await signers.secp256k1.signHash(digest);
  const ecdsaMs = performance.now() - t;
  const compact = new Uint8Array([...ecdsa.r, ...ecdsa.s]);
  if (!secp256k1.verify(compact, digest, signers.secp256k1.publicKey, { prehash: false, lowS: false })) {
    throw new Error('the ECDSA signature does not verify');
  }
  return { keygenMs, ed25519Ms, ecdsaMs };
}
