import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The randomness of a 2-of-2 dealing, derived from the secret being dealt (HKDF-SHA256 with
 * a per-curve label and a call counter) instead of drawn at random.
 *
 * Why: recovery on a new device rebuilds the seed from the server's seed part and t key share
 * node parts. With a deterministic dealing the recovered seed yields exactly the same keygen_1
 * and keygen_2 as at keygen, so the client's share comes back and the server's stored share
 * stays valid; no key material has to be re-dealt or replaced on the server.
 *
 * Safety: the coefficient a1 is a PRF output under the secret seed, so keygen_2 = s + 2·a1
 * tells the server no more than a random a1 would. Whoever can evaluate this already holds
 * the whole secret.
 */
export function dealerRng(secret: Uint8Array, label: 'ed25519' | 'secp256k1'): (bytes?: number) => Uint8Array<ArrayBuffer> {
  let counter = 0;
  return (bytes = 32) =>
    hkdf(sha256, secret, undefined, utf8ToBytes(`svc-tss/v1/dealer/${label}/${counter++}`), bytes) as Uint8Array<ArrayBuffer>;
}
