import { SvcError } from './errors.js';

/**
 * A module the SDK loads on first use, so that an app's bundler puts it in its own chunk and
 * the page does not download it with the core: the ECDSA protocol (until the first presignature
 * fill) and the recovery flows (until a new device recovers). A failed load (offline, a chunk
 * the app's host no longer serves) is NETWORK_ERROR, and the next call tries again.
 */
export function lazyModule<M>(load: () => Promise<M>, what: string): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw new SvcError('NETWORK_ERROR', `could not load ${what}`, 0, { cause: err });
    }));
}
