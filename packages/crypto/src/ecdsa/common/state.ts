import { CryptoError } from '../../errors.js';

/*
 * Shared shape of the persisted protocol states. A state is a plain JSON object (hex strings,
 * numbers, arrays) so the server can store it between HTTP steps and any replica can continue.
 *
 * Fail-closed rules enforced here:
 *  - a step that throws rewrites the state object it was given, in place, to phase "aborted"
 *    with the error code and culprits, dropping every secret it held (the caller persists that);
 *  - an aborted state refuses every later step (PROTOCOL_ABORTED);
 *  - a state that has been stepped successfully is marked "superseded" in place and refuses a
 *    second step (STATE_CONSUMED): answering the same step twice would, e.g., reuse OT keys.
 *    Across processes the database must enforce the same with a compare-and-swap on `step`.
 */

export const STATE_VERSION = 1;

export type Role = 'client' | 'server';

export interface ProtocolState {
  v: number;
  kind: string;
  role: Role;
  phase: string;
  /** Number of successful steps so far: the compare-and-swap key for persisted states. */
  step: number;
  session_id?: string;
  data?: Record<string, unknown>;
  error?: { code: string; message: string; culprits: number[] };
}

export type StepResult<S, M, O> =
  | { done: false; state: S; outgoing: M }
  | { done: true; state: S; output: O; outgoing?: M };

export function checkState(state: unknown, kind: string, role: Role): ProtocolState {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new CryptoError('INVALID_INPUT', `${kind} state must be an object`);
  }
  const s = state as ProtocolState;
  if (s.v !== STATE_VERSION) throw new CryptoError('UNSUPPORTED_VERSION', `${kind} state version must be ${STATE_VERSION}`);
  if (s.kind !== kind) throw new CryptoError('INVALID_INPUT', `expected a ${kind} state, got ${JSON.stringify(s.kind)}`);
  if (s.role !== role) throw new CryptoError('INVALID_INPUT', `expected a ${role} state, got ${JSON.stringify(s.role)}`);
  if (s.phase === 'aborted') {
    throw new CryptoError('PROTOCOL_ABORTED', `${kind} session aborted earlier (${s.error?.code ?? 'unknown'}); start a new session`, s.error?.culprits ?? []);
  }
  if (s.phase === 'superseded' || s.phase === 'done') {
    throw new CryptoError('STATE_CONSUMED', `${kind} state was already stepped (${s.phase}); load the latest state`);
  }
  return s;
}

/**
 * Runs one step: on success marks the input state superseded; on failure aborts it in place
 * and rethrows (non-CryptoErrors become CHECK_FAILED so callers see one error type).
 */
export function runStep<R>(state: ProtocolState, f: () => R): R {
  try {
    const r = f();
    clear(state);
    state.phase = 'superseded';
    return r;
  } catch (e) {
    const err = e instanceof CryptoError ? e : new CryptoError('CHECK_FAILED', `unexpected failure: ${(e as Error).message}`);
    clear(state);
    state.phase = 'aborted';
    state.error = { code: err.code, message: err.message, culprits: [...err.culprits] };
    throw err;
  }
}

function clear(state: ProtocolState): void {
  // JS strings cannot be overwritten; dropping the references is the best we can do for them.
  delete state.data;
}

export function newState(kind: string, role: Role, phase: string, step: number, sessionId: string | undefined, data: Record<string, unknown>): ProtocolState {
  const s: ProtocolState = { v: STATE_VERSION, kind, role, phase, step, data };
  if (sessionId !== undefined) s.session_id = sessionId;
  return s;
}
