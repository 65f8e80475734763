import type { EcdsaKeyShare } from '@svc/crypto/ecdsa';
import { lazyModule } from '../lazy-module.js';
import type { EcdsaProducerOptions, PooledPresignature } from './ecdsa-tss.js';
import type { AuthedPoster } from './ed25519-threshold-signer.js';
import type { EcdsaSignStep } from './secp256k1-threshold-signer.js';

/*
 * The wallet's way to the ECDSA protocol (ecdsa-tss.ts: triples, presign, the client's
 * signature share, and the OT and MtA code under them, about a fifth of the core's bytes).
 * The module is loaded when the first presignature fill or signature needs it: a Solana-only
 * app (presignaturePoolSize: 0) never downloads it.
 */
const loadEcdsaTss = lazyModule(() => import('./ecdsa-tss.js'), 'the ECDSA protocol');

/** ecdsaPresignatureProducer, loaded on its first fill. */
export function lazyPresignatureProducer(
  api: AuthedPoster,
  keyShare: () => Promise<EcdsaKeyShare>,
  options: EcdsaProducerOptions,
): (count: number) => Promise<PooledPresignature[]> {
  let producer: Promise<(count: number) => Promise<PooledPresignature[]>> | undefined;
  return async (count) => {
    producer ??= loadEcdsaTss().then((m) => m.ecdsaPresignatureProducer(api, keyShare, options));
    return (await producer)(count);
  };
}

/** tssEcdsaSignStep, loaded on the first signature. */
export const lazyEcdsaSignStep = (api: AuthedPoster): EcdsaSignStep<PooledPresignature> => ({
  sign: async (presignature, hash32) => (await loadEcdsaTss()).tssEcdsaSignStep(api).sign(presignature, hash32),
});
