import { hashedBodyEmail } from '@svc/accounts';
import { authClaims, verifiedIdentity } from '@svc/auth';
import { rateLimitStore, type PrismaClient } from '@svc/db';
import { rateLimitGuard, type RateLimitOptions } from '@svc/http';
import { markNodeChecksSpent } from './kernel/node-check-budget.js';

/** A rate limit whose counts live in PostgreSQL: every replica of tss-api counts against one limit. */
export function sharedRateLimit(db: PrismaClient, options: Omit<RateLimitOptions, 'store'>) {
  return rateLimitGuard({ ...options, store: rateLimitStore(db, options.name) });
}

export interface ProtocolRateLimits {
  /** triples/1 (a new run: 0.4-0.6 s of server CPU) per user and minute. */
  triplesPerMinute: number;
  /** Keygen calls per login identity (provider + subject) and hour. */
  keygenPerHour: number;
  /** user/check (no credential; each call asks every node about every wallet) per client address and minute. */
  userCheckPerMinute: number;
  /** user/check calls that ask the nodes, per email and minute (later ones answer from the database). */
  userCheckPerEmailPerMinute: number;
}

/**
 * Per-user limits of the calls that cost the server most for the least client effort. They run
 * after the route's credential guards, so they count verified identities, not claimed ones.
 */
export function protocolRateLimits(db: PrismaClient, limits: ProtocolRateLimits) {
  return {
    triplesStart: sharedRateLimit(db, {
      name: 'triplesRateLimit',
      windowMs: 60_000,
      limit: limits.triplesPerMinute,
      key: (_req, res) => `user:${authClaims(res).sub}`,
      // Only the first step opens a run; the later steps of a run are bounded by the run.
      skip: (req) => Boolean((req.body as { session_id?: unknown } | undefined)?.session_id),
    }),
    // user/check needs no credential (spec §5) and fans out to nodes × wallets probes from tss-api's
    // own address, where each node limits its /check per address: unbounded, anyone could spend
    // the nodes' allowance for tss-api and make every node read UNREACHABLE for everyone.
    // A failing store lets the call through: user/check's own failure is the spec's (500 "Failed to get user").
    userCheckPerAddress: sharedRateLimit(db, { name: 'userCheckRateLimit', windowMs: 60_000, limit: limits.userCheckPerMinute, passOnStoreError: true }),
    // Per email, a budget of node checks, not a limit (kernel/node-check-budget.ts).
    userCheckPerEmail: sharedRateLimit(db, {
      name: 'userCheckEmailRateLimit',
      windowMs: 60_000,
      limit: limits.userCheckPerEmailPerMinute,
      passOnStoreError: true,
      key: (req) => `email:${hashedBodyEmail(req)}`,
      overLimit: (_req, res) => markNodeChecksSpent(res),
    }),
    keygen: sharedRateLimit(db, {
      name: 'keygenRateLimit',
      windowMs: 3_600_000,
      limit: limits.keygenPerHour,
      key: (_req, res) => {
        const who = verifiedIdentity(res);
        return `${who.authType}|${who.subject}`;
      },
    }),
  };
}
