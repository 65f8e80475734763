/**
 * What the log keeps of an unexpected error: its class, code and stack frames, and its
 * message with personal data masked. Database errors quote the query's values (emails,
 * user ids, wire messages) in their message and stack text, and logs are read by people
 * and kept by collectors that are not the database.
 */
export function describeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { value: typeof err };
  const e = err as Error & { code?: unknown; meta?: { modelName?: unknown; target?: unknown } };
  return {
    name: err.name,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    // Prisma's meta.target names the columns of a violated constraint, never their values.
    ...(e.meta?.modelName !== undefined ? { model: String(e.meta.modelName) } : {}),
    ...(e.meta?.target !== undefined ? { target: String(e.meta.target) } : {}),
    message: maskMessage(err.message),
    stack: (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).join('\n'),
    ...(err.cause !== undefined ? { cause: describeError(err.cause) } : {}),
  };
}

const MAX_MESSAGE = 500;

/** The last line of the message (Prisma puts the reason there, after the invocation), masked. */
export function maskMessage(message: string): string {
  const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = lines.at(-1) ?? '';
  return last
    .replace(/[^\s@"'`<>()[\]{},;:]+@[^\s@"'`<>()[\]{},;:]+/g, '<email>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
    .replace(/"[^"]*"/g, '"…"')
    .slice(0, MAX_MESSAGE);
}
