import { isSvcError } from '../src/errors.js';
import { lazyModule } from '../src/lazy-module.js';

describe('lazyModule (the parts the wallet loads on first use)', () => {
  it('loads once and hands every caller the same module', async () => {
    let loads = 0;
    const load = lazyModule(async () => ({ n: ++loads }), 'the thing');
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('reports a failed load as NETWORK_ERROR and tries again on the next call', async () => {
    let attempts = 0;
    const load = lazyModule(async () => {
      if (++attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { ok: true };
    }, 'the ECDSA protocol');
    const failure = await load().catch((err: unknown) => err);
    expect(isSvcError(failure, 'NETWORK_ERROR')).toBe(true);
    expect((failure as Error).message).toBe('NETWORK_ERROR: could not load the ECDSA protocol');
    expect((failure as Error).cause).toBeInstanceOf(TypeError);
    expect(await load()).toEqual({ ok: true });
    expect(attempts).toBe(2);
  });
});
