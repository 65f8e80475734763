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
    if (value && !URL.canParse(value)) this.problems.push(`${name} must be a URL, got "${value}"`);
    return value;
  }

  optionalUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value !== undefined && !URL.canParse(value)) this.problems.push(`${name} must be a URL, got "${value}"`);
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

  /** Records a problem found by a cross-field check. */
  fail(problem: string): void {
    this.problems.push(problem);
  }

  /** Throws one ConfigError listing every problem found, if any. */
  done(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}
