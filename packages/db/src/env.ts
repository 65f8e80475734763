/**
 * The only place @svc/db reads the environment. Values are read when asked for (not at import)
 * so that tests and the stack runner can set them before a database is started.
 */
export interface DbEnv {
  /** External PostgreSQL; when unset, an embedded server is started. */
  databaseUrl: string | undefined;
  /** Port of the embedded server (default 5433, so it never collides with a system PostgreSQL on 5432). */
  embeddedPort: number;
  /** Data directory of the embedded server (default <repo>/.data/postgres). */
  embeddedDataDir: string | undefined;
}

export const DEFAULT_EMBEDDED_PORT = 5433;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readDbEnv(source: Record<string, string | undefined> = process.env): DbEnv {
  const rawPort = nonEmpty(source.EMBEDDED_PG_PORT);
  const port = rawPort === undefined ? DEFAULT_EMBEDDED_PORT : Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`EMBEDDED_PG_PORT must be an integer between 1 and 65535, got "${rawPort}"`);
  }
  return {
    databaseUrl: nonEmpty(source.DATABASE_URL),
    embeddedPort: port,
    embeddedDataDir: nonEmpty(source.EMBEDDED_PG_DATA_DIR),
  };
}
