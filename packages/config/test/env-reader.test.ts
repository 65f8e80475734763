import { ConfigError, EnvReader } from '../src/index.js';

describe('EnvReader', () => {
  it('reads typed values with defaults', () => {
    const env = new EnvReader({ PORT: '4300', FLAG: 'yes', NAME: ' node-1 ' });
    expect(env.port('PORT', 1)).toBe(4300);
    expect(env.port('OTHER_PORT', 4201)).toBe(4201);
    expect(env.bool('FLAG', false)).toBe(true);
    expect(env.string('NAME')).toBe('node-1');
    expect(env.oneOf('LEVEL', ['info', 'debug'] as const, 'info')).toBe('info');
    env.done();
  });

  it('reads durations as seconds, the unit in either case (spec §5/§8 write the JWT lifetime "1H")', () => {
    const env = new EnvReader({ A: '3600', B: '1H', C: '1h', D: '15m', E: '7D', F: ' 90 s ' });
    expect(['A', 'B', 'C', 'D', 'E', 'F'].map((n) => env.seconds(n, '1h'))).toEqual([3600, 3600, 3600, 900, 604_800, 90]);
    expect(env.seconds('UNSET', '10M')).toBe(600);
    env.done();
    const bad = new EnvReader({ BAD: '1 hour', ZERO: '0h', NEG: '-5' });
    for (const n of ['BAD', 'ZERO', 'NEG']) expect(bad.seconds(n, '1h')).toBe(3600);
    expect(() => bad.done()).toThrow(/BAD must be seconds or a number with s, m, h or d[\s\S]*"1 hour"[\s\S]*ZERO[\s\S]*NEG/);
  });

  it('reports every problem at once, without echoing secrets', () => {
    const env = new EnvReader({ PORT: 'eighty', JWT_SECRET: 'tiny', URL: 'not a url' });
    env.port('PORT', 1);
    env.secret('JWT_SECRET', 32);
    env.string('REQUIRED');
    env.url('URL');
    expect(() => env.done()).toThrow(ConfigError);
    try {
      env.done();
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toEqual([
        'PORT must be an integer between 0 and 65535, got "eighty"',
        'JWT_SECRET must be at least 32 characters',
        'REQUIRED is required',
        'URL must be a URL, got "not a url"',
      ]);
      expect((error as Error).message).not.toContain('tiny');
    }
  });
  it('never echoes the credentials of a URL it cannot parse (a password holding "/", "#" or "?" breaks the URL)', () => {
    const env = new EnvReader({ DATABASE_URL: 'postgresql://svc:Zk3s/q9+w#x@db.internal:5432/svc_main', TSS_API_URL: 'http://admin:hunter2/x@tss-api:4210' });
    env.optionalUrl('DATABASE_URL');
    env.url('TSS_API_URL');
    expect(() => env.done()).toThrow(ConfigError);
    try {
      env.done();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'DATABASE_URL must be a URL, got "postgresql://***@db.internal:5432/svc_main"',
        'TSS_API_URL must be a URL, got "http://***@tss-api:4210"',
      ]);
      expect((error as Error).message).not.toMatch(/Zk3s|hunter2/);
    }
  });

  it('reads TRUST_PROXY as a hop count or a list of addresses, ranges and preset names, and refuses "true"', () => {
    const env = new EnvReader({ HOPS: '1', LIST: 'loopback, uniquelocal,10.0.0.0/8, fd00::/8,192.0.2.7' });
    expect(env.trustProxy('HOPS')).toBe(1);
    expect(env.trustProxy('LIST')).toEqual(['loopback', 'uniquelocal', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    expect(env.trustProxy('UNSET')).toEqual(['loopback']);
    env.done();
    const bad = new EnvReader({ ALL: 'true', NAME: 'gateway', MASK: '10.0.0.0/33', SIX: '::1/129', EMPTY: ' , ', MANY: '99' });
    for (const n of ['ALL', 'NAME', 'MASK', 'SIX', 'EMPTY']) expect(bad.trustProxy(n)).toEqual(['loopback']);
    bad.trustProxy('MANY');
    expect(() => bad.done()).toThrow(/ALL must be a hop count[\s\S]*any client choose its own address[\s\S]*NAME[\s\S]*MASK[\s\S]*SIX[\s\S]*MANY must be an integer between 0 and 16/);
  });
});
