/** Connection URLs <-> the discrete fields pg and the Prisma adapter take. */
export interface ConnectionFields {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export function connectionFields(url: string): ConnectionFields {
  const parsed = new URL(url);
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:') {
    throw new Error(`database URL must start with postgresql://, got "${parsed.protocol}//..."`);
  }
  return {
    host: decodeURIComponent(parsed.hostname) || 'localhost',
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
  };
}

export function connectionUrl(fields: ConnectionFields): string {
  const auth = `${encodeURIComponent(fields.user)}:${encodeURIComponent(fields.password)}`;
  return `postgresql://${auth}@${fields.host}:${fields.port}/${encodeURIComponent(fields.database)}`;
}

/** The same server and credentials, another database (key share nodes, test databases). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
