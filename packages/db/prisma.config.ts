// Configuration of the Prisma CLI for this package. The CLI cannot download its native schema
// engine here (no internet), so it runs Prisma's WebAssembly schema engine ('js') through the
// pg driver adapter. Only `prisma migrate status|deploy|diff --from-migrations` against a real
// server use the adapter; `prisma generate` and `prisma migrate diff` between schema files
// need no database. Services never use this file: they apply migrations with src/migrate.ts.
import { defineConfig } from 'prisma/config';
import { migrationCliAdapter } from './src/cli-adapter.js';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => migrationCliAdapter(),
});
