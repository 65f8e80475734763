import type { ApiKeyOwner } from './api-key.js';

export type ApiKeyLookup = (hash: string) => Promise<ApiKeyOwner | null>;

export interface ApiKeyCacheOptions {
  /**
   * How long an answer is reused, in ms. This is the bound on how stale a replica may be: a key
   * revoked (or a customer suspended) in the database is refused by every replica at most this
   * long afterwards. 0 turns the cache off.
   */
  ttlMs: number;
  /** Entries kept at most (oldest dropped first), so a flood of distinct keys costs bounded memory. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Wraps an API-key lookup (hash -> owner, or null for an unknown or revoked key) with a short-lived
 * per-process cache. Every authenticated call looks its key up, and the answer changes only when
 * an operator revokes the key or suspends the customer, so a few seconds of reuse removes the
 * database round trip (and the ORM's query compilation) from almost every call while keeping
 * revocation prompt on every replica without any cross-replica signal. Negative answers are
 * cached too, for the same TTL: a revoked key retried in a loop does not reach the database
 * either, and a newly created key may wait up to the TTL. Concurrent misses for one hash share
 * one lookup; a failed lookup (database down) is not cached. Keys are SHA-256 hashes, never the
 * API keys themselves.
 */
export function cacheApiKeyLookup(lookup: ApiKeyLookup, options: ApiKeyCacheOptions): ApiKeyLookup {
  const { ttlMs, maxEntries = 10_000, now = Date.now } = options;
  if (!(ttlMs >= 0) || !Number.isFinite(ttlMs)) throw new RangeError('ttlMs must be a finite number >= 0');
  if (ttlMs === 0) return lookup;
  const entries = new Map<string, { expires: number; owner: Promise<ApiKeyOwner | null> }>();
  return (hash) => {
    const t = now();
    const hit = entries.get(hash);
    if (hit && hit.expires > t) return hit.owner;
    entries.delete(hash);
    const entry = { expires: t + ttlMs, owner: lookup(hash) };
    entries.set(hash, entry);
    entry.owner.catch(() => {
      if (entries.get(hash) === entry) entries.delete(hash);
    });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return entry.owner;
  };
}
