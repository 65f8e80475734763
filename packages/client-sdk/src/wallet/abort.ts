import { SvcError } from '../errors.js';

/** What every public flow of SvcWallet accepts. */
export interface FlowOptions {
  /** Cancels the flow: it ends in SvcError ABORTED, with the share storage unchanged. */
  signal?: AbortSignal;
}

/** The flow stops here when the app has aborted it (called between protocol steps). */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal.reason);
}

/**
 * Runs a flow under the app's signal: whatever the flow fails with once the signal fired (the
 * fetch's DOMException AbortError, a step refused because of it) becomes SvcError ABORTED.
 */
export async function abortable<T>(signal: AbortSignal | undefined, flow: () => Promise<T>): Promise<T> {
  checkAborted(signal);
  try {
    return await flow();
  } catch (err) {
    if (signal?.aborted) throw abortedError(err);
    throw err;
  }
}

function abortedError(cause: unknown): SvcError {
  return new SvcError('ABORTED', 'the operation was aborted', 0, { cause });
}

/** The request option carrying the app's signal to fetch (none when the app gave none). */
export function withSignal(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}
