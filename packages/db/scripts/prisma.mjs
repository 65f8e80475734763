#!/usr/bin/env node
// Runs the Prisma CLI of this package offline: the CLI would try to download native engines,
// which no registry here serves. Pointing these variables at any existing file stops the
// download; the query engine is not needed (engineType "client") and the schema engine is
// the WebAssembly one selected in prisma.config.ts.
// Usage: node scripts/prisma.mjs <prisma arguments...>   (e.g. `generate`)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const placeholder = join(packageDir, 'package.json');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || placeholder,
  PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY || placeholder,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  // No telemetry or update checks: they would only time out here.
  CHECKPOINT_DISABLE: '1',
};
const cli = createRequire(join(packageDir, 'package.json')).resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { cwd: packageDir, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
