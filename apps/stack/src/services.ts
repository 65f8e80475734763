/**
 * What `pnpm start` runs: every app as its own process, as in production, and three key
 * share nodes each on its own database. Ports are the spec's (gateway 4200, nodes 4201+)
 * and, for the internal apps the gateway forwards to, 4210/4220/4230.
 */
export interface ServiceSpec {
  name: string;
  /** Workspace directory under apps/. */
  app: string;
  port: number;
  env: Record<string, string>;
}

export const GATEWAY_PORT = 4200;
export const TSS_API_PORT = 4210;
export const ADMIN_API_PORT = 4220;
export const DASHBOARD_API_PORT = 4230;
export const KEYSHARE_NODE_COUNT = 3;
export const KEYSHARE_THRESHOLD = 2;

export function keyshareNodes(): { name: string; port: number; database: string }[] {
  return Array.from({ length: KEYSHARE_NODE_COUNT }, (_, i) => ({
    name: `node-${i + 1}`,
    port: 4201 + i,
    database: `keyshare_node_${i + 1}`,
  }));
}

export interface StackInputs {
  mainDatabaseUrl: string;
  nodeDatabaseUrls: Map<string, string>;
  secrets: DevSecrets;
  mailSpoolDir: string;
}

export interface DevSecrets {
  jwtSecret: string;
  shareEncryptionKeys: string;
  nodeEncryptionKeys: Record<string, string>;
  emailIdTokenPrivateKey: string;
}

export function stackServices({ mainDatabaseUrl, nodeDatabaseUrls, secrets, mailSpoolDir }: StackInputs): ServiceSpec[] {
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const nodes = keyshareNodes();
  const common = { DATABASE_URL: mainDatabaseUrl, JWT_SECRET: secrets.jwtSecret, MAIL_SPOOL_DIR: mailSpoolDir };
  return [
    {
      name: 'tss-api',
      app: 'tss-api',
      port: TSS_API_PORT,
      env: {
        ...common,
        SHARE_ENCRYPTION_KEYS: secrets.shareEncryptionKeys,
        EMAIL_ID_TOKEN_PRIVATE_KEY: secrets.emailIdTokenPrivateKey,
        PUBLIC_URL: local(GATEWAY_PORT),
        KEYSHARE_NODES: nodes.map((n) => `${n.name}=${local(n.port)}`).join(','),
        KEYSHARE_THRESHOLD: String(KEYSHARE_THRESHOLD),
      },
    },
    { name: 'admin-api', app: 'admin-api', port: ADMIN_API_PORT, env: { ...common } },
    { name: 'dashboard-api', app: 'dashboard-api', port: DASHBOARD_API_PORT, env: { ...common } },
    ...nodes.map((node) => ({
      name: node.name,
      app: 'keyshare-node',
      port: node.port,
      env: {
        DATABASE_URL: nodeDatabaseUrls.get(node.database)!,
        KS_NODE_NAME: node.name,
        SHARE_ENCRYPTION_KEYS: secrets.nodeEncryptionKeys[node.name]!,
        TSS_API_URL: local(TSS_API_PORT),
        // Email-login ID tokens are issued by tss-api under its public (gateway) URL.
        EMAIL_ID_TOKEN_ISSUER: `${local(GATEWAY_PORT)}/tss/v1`,
        PUBLIC_URL: local(node.port),
      },
    })),
    {
      name: 'gateway',
      app: 'gateway',
      port: GATEWAY_PORT,
      env: {
        TSS_API_URL: local(TSS_API_PORT),
        ADMIN_API_URL: local(ADMIN_API_PORT),
        DASHBOARD_API_URL: local(DASHBOARD_API_PORT),
      },
    },
  ];
}

/** Every app's name and port, known before any database or secret is (the start-up port check). */
export function stackPorts(): { name: string; port: number }[] {
  const none = { jwtSecret: '', shareEncryptionKeys: '', nodeEncryptionKeys: {}, emailIdTokenPrivateKey: '' };
  return stackServices({ mainDatabaseUrl: '', nodeDatabaseUrls: new Map(), secrets: none, mailSpoolDir: '' }).map(({ name, port }) => ({ name, port }));
}
