import type { EcdsaKeyShare } from '@svc/crypto/ecdsa';
import type { AuthedPoster } from '../threshold/ed25519-threshold-signer.js';
import type { PooledPresignature } from '../threshold/ecdsa-tss.js';
import { lazyEcdsaSignStep, lazyPresignatureProducer } from '../threshold/lazy-ecdsa.js';
import { PresignaturePool } from '../threshold/presignature-pool.js';
import type { PresignatureSource } from '../threshold/presignature-pool.js';
import type { EcdsaSignStep } from '../threshold/secp256k1-threshold-signer.js';

/** How the secp256k1 threshold signer gets presignatures and signs. */
export interface EcdsaWiring<P = unknown> {
  source: PresignatureSource<P>;
  step: EcdsaSignStep<P>;
}

export interface EcdsaPoolsOptions {
  /** Presignatures kept ready per wallet (default 4; at most the server's ECDSA_PRESIGNATURE_POOL_MAX). */
  target?: number;
  /** A background fill failed (the next signature retries in the foreground). */
  onError?: (err: unknown) => void;
}

/**
 * One presignature pool per wallet key for the life of a SvcWallet, so that every `signers()`
 * or `chains()` call draws from the same pool and a presignature is handed out once. The
 * client halves live in memory only: after a reload the server's orphaned halves are
 * discarded by the producer and the pool refills.
 */
export class EcdsaPools {
  private readonly pools = new Map<string, PresignaturePool<PooledPresignature>>();

  constructor(
    private readonly api: AuthedPoster,
    private readonly options: EcdsaPoolsOptions = {},
  ) {}

  wiring(walletId: string, publicKeyHex: string, keyShare: () => Promise<EcdsaKeyShare>): EcdsaWiring<PooledPresignature> {
    const key = `${walletId}:${publicKeyHex}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const produce = lazyPresignatureProducer(this.api, keyShare, { holdsPresignatures: () => (pool?.size ?? 0) > 0 });
      pool = new PresignaturePool(produce, { target: this.options.target ?? 4, onError: (err) => this.options.onError?.(err) });
      this.pools.set(key, pool);
    }
    return { source: pool, step: lazyEcdsaSignStep(this.api) };
  }

  /** Forgets every presignature (sign-out): none may outlive the session that made it. */
  clear(): void {
    for (const pool of this.pools.values()) pool.clear();
    this.pools.clear();
  }
}
