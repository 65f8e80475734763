import { SvcError } from '../errors.js';

/**
 * Where the secp256k1 threshold signer gets the presignature for one signature. A
 * presignature is single use: `take` hands each out at most once.
 */
export interface PresignatureSource<P> {
  take(): Promise<P>;
  /** Called after keygen/recovery and after each use, so the source can refill in the background. */
  replenish(): void;
  /**
   * Drops every presignature held: the server refused one as not available, so the others
   * were most likely discarded with it (another device of the user reset the pool).
   */
  clear?(): void;
}

export interface PresignaturePoolOptions {
  /** Presignatures to keep ready (default 4). */
  target?: number;
  /** Called when a background fill fails (the next take retries in the foreground). */
  onError?: (err: unknown) => void;
}

/**
 * A client-side pool over a producer (for ECDSA: triples + presign against tss-api, which
 * pools the matching server halves). Fills in the background up to `target`; `take` waits for
 * a fill when empty. One fill runs at a time, so the server is never asked twice for the same
 * slot.
 */
export class PresignaturePool<P> implements PresignatureSource<P> {
  private readonly ready: P[] = [];
  private filling: Promise<void> | undefined;
  private lastFillCount = 0;
  private readonly target: number;

  constructor(
    private readonly produce: (count: number) => Promise<P[]>,
    private readonly options: PresignaturePoolOptions = {},
  ) {
    this.target = options.target ?? 4;
  }

  get size(): number {
    return this.ready.length;
  }

  async take(): Promise<P> {
    // Concurrent takers may empty a fill before this one wakes: loop while fills make progress.
    for (;;) {
      const next = this.ready.shift();
      if (next !== undefined) {
        this.replenish();
        return next;
      }
      await this.fill();
      if (this.lastFillCount === 0) throw new SvcError('ECDSA_UNAVAILABLE', 'no presignature could be produced');
    }
  }

  clear(): void {
    this.ready.length = 0;
  }

  replenish(): void {
    if (this.ready.length >= this.target || this.filling) return;
    this.fill().catch((err: unknown) => this.options.onError?.(err));
  }

  /** Waits for the running fill, or starts one; rejects with the producer's error. */
  fill(): Promise<void> {
    this.filling ??= (async () => {
      try {
        const missing = Math.max(1, this.target - this.ready.length);
        const produced = await this.produce(missing);
        this.lastFillCount = produced.length;
        this.ready.push(...produced);
      } finally {
        this.filling = undefined;
      }
    })();
    return this.filling;
  }
}
