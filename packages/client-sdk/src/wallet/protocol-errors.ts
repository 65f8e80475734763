import { CryptoError } from '@svc/crypto/errors';
import { KeyshareBackupError, KeyshareNodeError } from '@svc/keyshare-client/nodes';
import { SvcError } from '../errors.js';

/**
 * Turns what the protocol libraries throw into the SDK's one error type. A CryptoError while
 * processing a server answer means the answer failed a check: PROTOCOL_ERROR, never a result.
 */
export function asSvcError(err: unknown, what: string): unknown {
  if (err instanceof SvcError) return err;
  if (err instanceof CryptoError) {
    const culprit = err.culprits.includes(2) ? ' (the server\u2019s part)' : '';
    return new SvcError('PROTOCOL_ERROR', `${what}: ${err.code}${culprit}: ${err.message}`, 0, { cause: err });
  }
  if (err instanceof KeyshareBackupError) {
    const detail = err.outcomes
      .filter((o) => !o.ok)
      .map((o) => `${o.name}: ${o.error?.code ?? 'failed'}`)
      .join(', ');
    return new SvcError('KEYSHARE_ERROR', `${what}: ${err.message}${detail ? ` (${detail})` : ''}`, 0, { cause: err });
  }
  if (err instanceof KeyshareNodeError) {
    return new SvcError('KEYSHARE_ERROR', `${what}: ${err.message}`, err.status, { cause: err });
  }
  return err;
}

/** Runs `fn`, rethrowing its failure as SvcError where it is a protocol or node failure. */
export async function withSvcErrors<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asSvcError(err, what);
  }
}
