import { isIP } from 'node:net';

/**
 * Typed reads of configuration variables that collect every problem and report them all
 * together, so a misconfigured deployment fails at start-up with one clear message rather
 * than at the first request that needs the value.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Source = Record<string, string | undefined>;

export class EnvReader {
  private readonly problems: string[] = [];
  constructor(private readonly source: Source) {}

  private raw(name: string): string | undefined {
    const value = this.source[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  /** A required string, or the default when one is given. */
  string(name: string, fallback?: string): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) {
      this.problems.push(`${name} is required`);
      return '';
    }
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  /** A secret: required, at least `minLength` characters, never echoed in messages. */
  secret(name: string, minLength: number, fallback?: string): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) this.problems.push(`${name} is required`);
    else if (value.length < minLength) this.problems.push(`${name} must be at least ${minLength} characters`);
    return value ?? '';
  }

  int(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  /**
   * A duration in whole seconds, written as seconds ("3600") or a number and a unit s, m, h or
   * d in either case ("90s", "15m", "1h", "1H", "7d"; spec §5/§8 write the JWT lifetime "1H").
   */
  seconds(name: string, fallback: string): number {
    const raw = this.raw(name) ?? fallback;
    const seconds = parseSeconds(raw);
    if (seconds === undefined) {
      this.problems.push(`${name} must be seconds or a number with s, m, h or d (e.g. 15m, 1h, 7d), got "${raw}"`);
      return parseSeconds(fallback) ?? 0;
    }
    return seconds;
  }

  port(name: string, fallback: number): number {
    return this.int(name, fallback, { min: 0, max: 65535 });
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  url(name: string, fallback?: string): string {
    const value = this.string(name, fallback);
    if (value && !URL.canParse(value)) this.problems.push(`${name} must be a URL, got "${withoutCredentials(value)}"`);
    return value;
  }

  optionalUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value !== undefined && !URL.canParse(value)) this.problems.push(`${name} must be a URL, got "${withoutCredentials(value)}"`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return fallback;
    }
    return raw as T;
  }

  /**
   * Which peers' X-Forwarded-For an HTTP service believes (Express's `trust proxy`): a hop count
   * ("1": the one proxy in front) or a comma-separated list of addresses, CIDR ranges and the
   * names loopback, linklocal, uniquelocal. Per-client limits key on the address this yields, so
   * behind a gateway or ingress on a pod network "loopback" alone makes every client one address.
   * "true" (believe anyone) is refused: any client could then pick its own address.
   */
  trustProxy(name: string, fallback: TrustProxy = ['loopback']): TrustProxy {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (/^\d+$/.test(raw)) return this.int(name, 0, { min: 0, max: 16 });
    const entries = raw.split(',').map((e) => e.trim()).filter((e) => e !== '');
    const bad = entries.filter((e) => !isTrustedProxyEntry(e));
    if (entries.length === 0 || bad.length > 0) {
      this.problems.push(
        `${name} must be a hop count or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal, got "${raw}"` +
          (/^(true|yes|on)$/i.test(raw) ? ' (trusting every peer would let any client choose its own address: give the hop count or the proxies\' ranges)' : ''),
      );
      return fallback;
    }
    return entries;
  }

  /** Records a problem found by a cross-field check. */
  fail(problem: string): void {
    this.problems.push(problem);
  }

  /** Throws one ConfigError listing every problem found, if any. */
  done(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}

/** A hop count, or the addresses / ranges / preset names of the proxies to believe. */
export type TrustProxy = number | string[];

const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_PRESETS.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * A URL as a message may quote it: whatever comes before its last "@" (after the scheme) masked.
 * A DATABASE_URL whose password holds "/", "#" or "?" does not parse, and the message that says
 * so is printed at start-up, where logs keep it.
 */
function withoutCredentials(value: string): string {
  return value.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?.*@/s, '$1***@');
}

const SPAN = /^(\d+)\s*([smhd])?$/i;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "3600", "90s", "15m", "1h", "1H", "7d" -> seconds (positive); undefined otherwise. */
function parseSeconds(value: string): number | undefined {
  const match = SPAN.exec(value.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] ?? 's').toLowerCase()]!;
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined;
}
