/**
 * What each container image is built from: the entry bundled by esbuild, the workspace
 * package whose production dependencies go into node_modules, the port it listens on, and
 * the migrations it ships (only the migration job applies them).
 */
export interface ImageTarget {
  /** Entry file, relative to the repository root (bundled to dist/index.mjs). */
  entry: string;
  /** More commands shipped in the image: dist/<name>.mjs from these entry files. */
  commands?: Record<string, string>;
  /** Workspace package name, for `pnpm deploy`. */
  workspacePackage: string;
  /** Listening port (PORT default of the app); undefined for a run-to-completion job. */
  port?: number;
  /** Migration folders copied to <out>/migrations/<name>, relative to the repository root. */
  migrations?: Record<string, string>;
}

export const IMAGE_TARGETS: Record<string, ImageTarget> = {
  gateway: { entry: 'apps/gateway/src/index.ts', workspacePackage: '@svc/gateway', port: 4200 },
  'tss-api': { entry: 'apps/tss-api/src/index.ts', workspacePackage: '@svc/tss-api', port: 4210 },
  'admin-api': {
    entry: 'apps/admin-api/src/index.ts',
    workspacePackage: '@svc/admin-api',
    port: 4220,
    // The first admin is created with it (kubectl exec, docs/operations.md): there is no default admin.
    commands: { 'create-admin': 'apps/admin-api/src/cli/create-admin.ts' },
  },
  'dashboard-api': { entry: 'apps/dashboard-api/src/index.ts', workspacePackage: '@svc/dashboard-api', port: 4230 },
  'keyshare-node': { entry: 'apps/keyshare-node/src/index.ts', workspacePackage: '@svc/keyshare-node', port: 4201 },
  migrate: {
    entry: 'infra/src/migrate-job/main.ts',
    workspacePackage: '@svc/infra',
    migrations: {
      main: 'packages/db/prisma/migrations',
      'keyshare-node': 'apps/keyshare-node/prisma/migrations',
    },
  },
};
