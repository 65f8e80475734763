import { KeyshareNodeError, type KeyshareNodeClient } from './node-client.js';
import type { IdTokenSession } from './session.js';

/** What each node answered to a call made on all of them, and the commit every sign-in starts with. */

export interface NodeOutcome {
  name: string;
  endpoint: string;
  ok: boolean;
  /** Why it failed (code and message of the node, or NODE_UNREACHABLE). */
  error?: { status: number; code: string; msg: string };
}

export class KeyshareBackupError extends Error {
  override readonly name = 'KeyshareBackupError';
  constructor(message: string, readonly outcomes: NodeOutcome[]) {
    super(message);
  }
}

/** One node's answer to a call made on every node. */
export function outcomeOf(node: KeyshareNodeClient, result: PromiseSettledResult<unknown>): NodeOutcome {
  if (result.status === 'fulfilled') return { name: node.name, endpoint: node.endpoint, ok: true };
  const e = result.reason;
  const error =
    e instanceof KeyshareNodeError
      ? { status: e.status, code: e.code, msg: e.message }
      : { status: 0, code: 'CLIENT_ERROR', msg: e instanceof Error ? e.message : String(e) };
  return { name: node.name, endpoint: node.endpoint, ok: false, error };
}

/**
 * Commits the session to every node, in parallel. Call it BEFORE the ID token is shown to
 * anyone else (the main server included): a node that did not get the commit could later be
 * given the token by whoever saw it. Throws unless at least `minimum` nodes (default: all)
 * accepted; the outcomes say which did.
 */
export async function commitToNodes(nodes: readonly KeyshareNodeClient[], session: IdTokenSession, minimum = nodes.length): Promise<NodeOutcome[]> {
  const results = await Promise.allSettled(nodes.map((n) => n.commit(session)));
  const outcomes = nodes.map((n, i) => outcomeOf(n, results[i]!));
  const ok = outcomes.filter((o) => o.ok).length;
  if (ok < minimum) throw new KeyshareBackupError(`ID token committed to ${ok} of ${nodes.length} nodes, need ${minimum}`, outcomes);
  return outcomes;
}
