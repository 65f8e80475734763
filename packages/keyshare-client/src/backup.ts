import { fromHex, sssCombine, sssExtendShares, sssNodeXCoordinate, sssSplit, toHex, type SssVerify } from '@svc/crypto';
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

export interface FetchedShares {
  shares: Uint8Array[];
  outcomes: NodeOutcome[];
}

/** Fetches the caller's share from each node in parallel; unreachable or refusing nodes are reported, not fatal. */
export async function fetchShares(nodes: readonly KeyshareNodeClient[], session: IdTokenSession, wallet: WalletRef): Promise<FetchedShares> {
  const results = await Promise.allSettled(nodes.map((n) => n.fetchShare(session, wallet)));
  const shares: Uint8Array[] = [];
  const outcomes = nodes.map((n, i) => {
    const r = results[i]!;
    if (r.status === 'fulfilled') {
      try {
        shares.push(fromHex(r.value.share, `${n.name} share`));
      } catch (cause) {
        return outcomeOf(n, { status: 'rejected', reason: new KeyshareNodeError(n.name, 200, 'INVALID_RESPONSE', String(cause)) });
      }
    }
    return outcomeOf(n, r);
  });
  return { shares, outcomes };
}

/**
 * Recovery on a new device: the user part from any `threshold` nodes (all reachable nodes are
 * asked; extra shares are cross-checked). Fails rather than returning a wrong value when the
 * shares are too few or do not pass `verify` (CryptoError from sss_combine names bad shares).
 */
export async function recoverUserPart(input: RecoverInput): Promise<{ userPart: Uint8Array; outcomes: NodeOutcome[] }> {
  const { shares, outcomes } = await fetchShares(input.nodes, input.session, input.wallet);
  if (shares.length < input.threshold) {
    throw new KeyshareBackupError(`got ${shares.length} shares, need ${input.threshold}`, outcomes);
  }
  const userPart = await sssCombine(shares, { threshold: input.threshold, ...(input.verify ? { verify: input.verify } : {}) });
  for (const s of shares) s.fill(0);
  return { userPart, outcomes };
}

export interface HealInput extends RecoverInput {
  /** Names (among `nodes`) of the nodes that lost their share (wallet_status UNRECOVERABLE_DATA_LOSS). */
  lost: readonly string[];
}

/**
 * Heal after a node's data loss: re-creates the lost nodes' shares at their own x-coordinates
 * from `threshold` shares of the healthy nodes (sss_extend_shares: the healthy shares stay
 * valid) and registers them with `reshare`. Returns the `reshared_key_shares` elements for
 * user/reshare: the nodes that now hold a fresh share.
 */
export async function healLostNodes(input: HealInput): Promise<{ resharedKeyShares: KeyshareNodeRef[]; outcomes: NodeOutcome[] }> {
  const lost = input.nodes.filter((n) => input.lost.includes(n.name));
  if (lost.length !== input.lost.length) throw new TypeError('every lost node must be one of nodes');
  const healthy = input.nodes.filter((n) => !input.lost.includes(n.name));
  const { shares, outcomes: fetched } = await fetchShares(healthy, input.session, input.wallet);
  if (shares.length < input.threshold) {
    throw new KeyshareBackupError(`got ${shares.length} healthy shares, need ${input.threshold} to heal`, fetched);
  }
  const expected = { threshold: input.threshold, ...(input.verify ? { verify: input.verify } : {}) };
  const fresh = await sssExtendShares(shares, lost.map((n) => sssNodeXCoordinate(n.name)), expected);
  for (const s of shares) s.fill(0);
  const results = await Promise.allSettled(lost.map((n, i) => n.register(input.session, input.wallet, toHex(fresh[i]!), { reshare: true })));
  for (const s of fresh) s.fill(0);
  const outcomes = lost.map((n, i) => outcomeOf(n, results[i]!));
  const resharedKeyShares = outcomes.filter((o) => o.ok).map((o) => ({ name: o.name, endpoint: o.endpoint }));
  return { resharedKeyShares, outcomes };
}
