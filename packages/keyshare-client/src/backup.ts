import { CryptoError, fromHex, sssCombine, sssExtendShares, sssNodeXCoordinate, sssSplit, toHex, type SssExpectation, type SssVerify } from '@svc/crypto';
import { KeyshareNodeError, type KeyshareNodeClient, type KeyshareNodeRef, type WalletRef } from './node-client.js';
import { KeyshareBackupError, outcomeOf, type NodeOutcome } from './outcomes.js';
import type { IdTokenSession } from './session.js';

/**
 * Backup, recovery and heal of the user part of a wallet seed over the key share nodes.
 * Node i holds the Shamir share at x = sssNodeXCoordinate(name_i), so a lost node's share can be
 * re-created at the same x from any t others (sss_extend_shares) without touching the others.
 */

export interface BackupInput {
  nodes: readonly KeyshareNodeClient[];
  threshold: number;
  session: IdTokenSession;
  wallet: WalletRef;
  /** The user part of the wallet seed (see splitWalletSeed). */
  userPart: Uint8Array;
}

/**
 * Keygen backup: splits the user part t-of-n at the nodes' x-coordinates and registers one
 * share per node. Throws when fewer than `threshold` nodes stored theirs (the backup would not
 * be recoverable); otherwise returns every node's outcome (failed ones need a heal later).
 */
export async function backupUserPart(input: BackupInput): Promise<NodeOutcome[]> {
  const { nodes, threshold, session, wallet, userPart } = input;
  const ids = nodes.map((n) => sssNodeXCoordinate(n.name));
  const shares = await sssSplit(userPart, nodes.length, threshold, ids);
  const results = await Promise.allSettled(nodes.map((n, i) => n.register(session, wallet, toHex(shares[i]!))));
  for (const s of shares) s.fill(0);
  const outcomes = nodes.map((n, i) => outcomeOf(n, results[i]!));
  const ok = outcomes.filter((o) => o.ok).length;
  if (ok < threshold) throw new KeyshareBackupError(`backup stored on ${ok} nodes, fewer than the threshold ${threshold}`, outcomes);
  return outcomes;
}

export interface RecoverInput {
  nodes: readonly KeyshareNodeClient[];
  threshold: number;
  session: IdTokenSession;
  wallet: WalletRef;
  /** Expected-key check of the recovered user part (see expectWalletKey). Strongly advised. */
  verify?: SssVerify;
}

/** The shares that passed the per-node checks (each with its node's index), and every node's outcome. */
interface FetchedShares {
  fetched: { index: number; share: Uint8Array }[];
  outcomes: NodeOutcome[];
}

/**
 * Fetches the caller's share from each node in parallel; unreachable or refusing nodes are
 * reported, not fatal. A share that cannot be this node's is left out: another x-coordinate than
 * the node's own (INVALID_RESPONSE), or a length the other nodes' shares do not have
 * (INVALID_SHARE). One node's bad answer must not stand in the way of the t good ones.
 */
async function fetchShares(nodes: readonly KeyshareNodeClient[], session: IdTokenSession, wallet: WalletRef): Promise<FetchedShares> {
  const results = await Promise.allSettled(nodes.map((n) => n.fetchShare(session, wallet)));
  const fetched: FetchedShares['fetched'] = [];
  const outcomes = nodes.map((n, i) => {
    const r = results[i]!;
    if (r.status === 'fulfilled') {
      try {
        const share = fromHex(r.value.share, `${n.name} share`);
        if (share.length < 2 || share[share.length - 1] !== sssNodeXCoordinate(n.name)) {
          throw new Error(`${n.name} answered a share that is not at its x-coordinate ${sssNodeXCoordinate(n.name)}`);
        }
        fetched.push({ index: i, share });
      } catch (cause) {
        return outcomeOf(n, { status: 'rejected', reason: new KeyshareNodeError(n.name, 200, 'INVALID_RESPONSE', cause instanceof Error ? cause.message : String(cause)) });
      }
    }
    return outcomeOf(n, r);
  });
  // Shares of one secret all have one length; keep the most common one (ties: the first seen).
  const counts = new Map<number, number>();
  for (const f of fetched) counts.set(f.share.length, (counts.get(f.share.length) ?? 0) + 1);
  const length = [...counts].reduce((best, c) => (c[1] > best[1] ? c : best), [0, 0])[0];
  for (const f of fetched.filter((x) => x.share.length !== length)) {
    outcomes[f.index] = badShare(nodes[f.index]!, `${nodes[f.index]!.name} answered a ${f.share.length}-byte share, the other nodes ${length}-byte ones`);
    f.share.fill(0);
  }
  return { fetched: fetched.filter((f) => f.share.length === length), outcomes };
}

function badShare(node: KeyshareNodeClient, msg: string): NodeOutcome {
  return { name: node.name, endpoint: node.endpoint, ok: false, error: { status: 200, code: 'INVALID_SHARE', msg } };
}

/**
 * Runs `use` (sssCombine or sssExtendShares) on the fetched shares. When `use` fails because
 * some shares are off the polynomial of a subset that passes `verify` (CryptoError INVALID_SHARE
 * naming their x-coordinates), those nodes are reported as INVALID_SHARE and `use` runs again
 * on the others: with t honest nodes among them, that run succeeds. Without `verify` a
 * corrupted share cannot be told from a good one and the error stands.
 */
async function tolerateBadShares<T>(
  nodes: readonly KeyshareNodeClient[],
  got: FetchedShares,
  threshold: number,
  use: (shares: Uint8Array[]) => Promise<T>,
): Promise<T> {
  try {
    return await use(got.fetched.map((f) => f.share));
  } catch (e) {
    if (!(e instanceof CryptoError) || e.code !== 'INVALID_SHARE' || e.culprits.length === 0) throw e;
    const bad = got.fetched.filter((f) => e.culprits.includes(f.share[f.share.length - 1]!));
    const good = got.fetched.filter((f) => !bad.includes(f));
    if (bad.length === 0 || good.length < threshold) throw e;
    for (const f of bad) {
      got.outcomes[f.index] = badShare(nodes[f.index]!, `${nodes[f.index]!.name} answered a share that does not reconstruct the wallet's seed with the others`);
      f.share.fill(0);
    }
    return use(good.map((f) => f.share));
  }
}

/**
 * Recovery on a new device: the user part from any `threshold` nodes (all reachable nodes are
 * asked; extra shares are cross-checked). A node whose share is not on the polynomial of t
 * others that pass `verify` is left out and reported as INVALID_SHARE, so one bad node does not
 * block recovery. Fails rather than returning a wrong value when fewer than t good shares
 * remain or nothing passes `verify`.
 */
export async function recoverUserPart(input: RecoverInput): Promise<{ userPart: Uint8Array; outcomes: NodeOutcome[] }> {
  const got = await fetchShares(input.nodes, input.session, input.wallet);
  if (got.fetched.length < input.threshold) {
    throw new KeyshareBackupError(`got ${got.fetched.length} shares, need ${input.threshold}`, got.outcomes);
  }
  try {
    const userPart = await tolerateBadShares(input.nodes, got, input.threshold, (shares) => sssCombine(shares, expectation(input)));
    return { userPart, outcomes: got.outcomes };
  } finally {
    for (const f of got.fetched) f.share.fill(0);
  }
}

export interface HealInput extends RecoverInput {
  /** Names (among `nodes`) of the nodes that lost their share (wallet_status UNRECOVERABLE_DATA_LOSS). */
  lost: readonly string[];
}

/**
 * Heal after a node's data loss: re-creates the lost nodes' shares at their own x-coordinates
 * from `threshold` shares of the others (sss_extend_shares: the shares held stay valid) and
 * registers them with `reshare`. Returns the `reshared_key_shares` elements for user/reshare: the
 * lost nodes that now hold the wallet's share; `outcomes` has each lost node's result and any
 * other node whose share was refused as INVALID_SHARE.
 *
 * The lost nodes are asked for their share too. user/check names nodes per account, not per
 * wallet, so a node listed lost may hold this wallet's share (the backup it misses is another
 * wallet's); left out, it can leave fewer than t sources, and the heal then fails for a wallet
 * that t nodes hold. Its share counts only once it agrees with the others (`verify`); it then needs
 * no new one and is reported like a healed node.
 */
export async function healLostNodes(input: HealInput): Promise<{ resharedKeyShares: KeyshareNodeRef[]; outcomes: NodeOutcome[] }> {
  const lost = input.nodes.filter((n) => input.lost.includes(n.name));
  if (lost.length !== input.lost.length) throw new TypeError('every lost node must be one of nodes');
  const got = await fetchShares(input.nodes, input.session, input.wallet);
  if (got.fetched.length < input.threshold) {
    throw new KeyshareBackupError(`got ${got.fetched.length} healthy shares, need ${input.threshold} to heal`, got.outcomes);
  }
  // Per attempt (a bad share is left out of the retry): a fresh share for each lost node whose own
  // share is not among the sources; one that is needs no new one and counts as done.
  let fresh: Map<KeyshareNodeClient, Uint8Array>;
  try {
    fresh = await tolerateBadShares(input.nodes, got, input.threshold, async (shares) => {
      const held = new Set(shares.map((s) => s.at(-1)));
      const targets = lost.filter((n) => !held.has(sssNodeXCoordinate(n.name)));
      const made = await sssExtendShares(shares, targets.map((n) => sssNodeXCoordinate(n.name)), expectation(input));
      return new Map(targets.map((n, i) => [n, made[i]!]));
    });
  } finally {
    for (const f of got.fetched) f.share.fill(0);
  }
  const results = await Promise.allSettled(
    lost.map(async (n) => {
      const share = fresh.get(n);
      if (share) await n.register(input.session, input.wallet, toHex(share), { reshare: true });
    }),
  );
  for (const s of fresh.values()) s.fill(0);
  const outcomes = lost.map((n, i) => outcomeOf(n, results[i]!));
  const resharedKeyShares = outcomes.filter((o) => o.ok).map((o) => ({ name: o.name, endpoint: o.endpoint }));
  // Another node whose share was left out is reported too: it needs attention of its own.
  return { resharedKeyShares, outcomes: [...outcomes, ...got.outcomes.filter((o) => o.error?.code === 'INVALID_SHARE' && !input.lost.includes(o.name))] };
}

function expectation(input: RecoverInput): SssExpectation {
  return { threshold: input.threshold, ...(input.verify ? { verify: input.verify } : {}) };
}
