/**
 * No Docker engine runs here, so the image recipe is checked in two parts: the Dockerfile's
 * instructions statically, and the build stage's own work (infra/scripts/bundle-app.ts,
 * which the Dockerfile runs) for real: its output must start with plain node, answer
 * /health, pass the image's health check and stop on SIGTERM.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { bundleApp } from '../scripts/bundle-app.js';
import { IMAGE_TARGETS } from '../scripts/image-targets.js';
import { freePort, spawnProcess, waitForOk } from './child-process.js';

const infraDir = join(import.meta.dirname, '..');
const repoRoot = join(infraDir, '..');
const dockerfile = readFileSync(join(infraDir, 'docker', 'Dockerfile'), 'utf8');

function stage(name: string): string {
  const start = dockerfile.search(new RegExp(`^FROM .* AS ${name}$`, 'm'));
  if (start < 0) throw new Error(`no stage ${name}`);
  const rest = dockerfile.slice(start + 1);
  const next = rest.search(/^FROM /m);
  return next < 0 ? dockerfile.slice(start) : dockerfile.slice(start, start + 1 + next);
}

describe('Dockerfile', () => {
  test('installs from the lockfile and bundles the app chosen by APP in a build stage', () => {
    const build = stage('build');
    expect(build).toMatch(/pnpm install --frozen-lockfile/);
    expect(build).toMatch(/ARG APP/);
    expect(build).toMatch(/pnpm --filter @svc\/infra bundle --app "\$\{APP\}" --out \/out/);
  });

  test('runtime stages copy only the build output and run as uid 10001', () => {
    const runtime = stage('runtime-base');
    expect(runtime).toMatch(/--uid 10001/);
    expect(runtime).toMatch(/^USER 10001:10001$/m);
    expect(runtime).toMatch(/^COPY --from=build --chown=0:0 \/out\/ \/app\/$/m);
    expect(runtime).not.toMatch(/pnpm install/);
    // no package manager left in what runs
    expect(runtime).toMatch(/rm -rf \/usr\/local\/lib\/node_modules \/usr\/local\/bin\/npm \/usr\/local\/bin\/npx/);
  });

  test('the service image (the last, default stage) has a HEALTHCHECK on /health and migrations off', () => {
    const service = stage('service');
    expect(dockerfile.trimEnd().endsWith(service.trimEnd())).toBe(true);
    expect(service).toMatch(/^HEALTHCHECK .*CMD \["node", "\/app\/healthcheck\.mjs"\]$/m);
    expect(service).toMatch(/MIGRATE_ON_START=false/);
    expect(readFileSync(join(infraDir, 'docker', 'healthcheck.mjs'), 'utf8')).toMatch(/\/health`/);
  });

  test('the migrate image runs the migration job with the migrations it ships', () => {
    const migrate = stage('migrate');
    expect(migrate).toMatch(/MIGRATIONS_ROOT=\/app\/migrations/);
    expect(migrate).toMatch(/ENTRYPOINT \["node", "\/app\/dist\/index\.mjs"\]/);
  });

  test('every image target exists in the workspace', () => {
    for (const [app, target] of Object.entries(IMAGE_TARGETS)) {
      const pkgDir = app === 'migrate' ? infraDir : join(repoRoot, 'apps', app);
      const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { name: string };
      expect(pkg.name).toBe(target.workspacePackage);
      for (const dir of Object.values(target.migrations ?? {})) expect(existsSync(join(repoRoot, dir))).toBe(true);
    }
  });

  test('the build context ignores dependencies, local data and git', () => {
    const ignore = readFileSync(join(infraDir, 'docker', 'Dockerfile.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', '.data', '.git', '**/.env']) expect(ignore).toContain(entry);
  });
});

describe('build stage output (bundle-app)', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'svc-image-'));
    await bundleApp('gateway', out);
  }, 120_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  test('holds the bundle, flat production dependencies and nothing development-only', () => {
    expect(existsSync(join(out, 'dist', 'index.mjs'))).toBe(true);
    expect(existsSync(join(out, 'node_modules', 'express', 'package.json'))).toBe(true);
    // a dependency of a workspace package (winston, of @svc/http) is resolvable from the bundle
    expect(existsSync(join(out, 'node_modules', 'winston', 'package.json'))).toBe(true);
    expect(existsSync(join(out, 'node_modules', '@svc'))).toBe(false);
    expect(existsSync(join(out, 'node_modules', 'jest'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'image.json'), 'utf8'))).toEqual({ app: 'gateway', port: 4200 });
  });

  test('starts with plain node, passes the health check, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const env = {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      TSS_API_URL: nowhere,
      ADMIN_API_URL: nowhere,
      DASHBOARD_API_URL: nowhere,
    };
    const app = spawnProcess(process.execPath, ['dist/index.mjs'], { cwd: out, env });
    try {
      await waitForOk(`http://127.0.0.1:${port}/health`, app);
      const check = spawnSync(process.execPath, [join(out, 'healthcheck.mjs')], { env, encoding: 'utf8' });
      expect(check.status).toBe(0);
      // The gateway's readiness does not follow its upstreams (none runs here); a request to one
      // of them is answered 503 UPSTREAM_UNAVAILABLE instead.
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
      const proxied = await fetch(`http://127.0.0.1:${port}/tss/v1/user/check`, { method: 'POST' });
      expect(proxied.status).toBe(503);
      expect(await proxied.json()).toMatchObject({ success: false, code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      app.child.kill('SIGTERM');
    }
    const { code } = await app.exited;
    expect(code).toBe(0);
    expect(app.output()).toMatch(/"service":"gateway"/);
  });

  test('the health check fails when nothing answers', async () => {
    const port = await freePort();
    const check = spawnSync(process.execPath, [join(out, 'healthcheck.mjs')], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      encoding: 'utf8',
    });
    expect(check.status).toBe(1);
  });
});

describe('CI workflow', () => {
  const workflow = parse(readFileSync(join(repoRoot, '.github', 'workflows', 'ci.yml'), 'utf8')) as {
    jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, string> }[]; strategy?: { matrix: { include: { app: string; target: string }[] } } }>;
  };

  test('runs lint, typecheck and the same tests as .ci/run', () => {
    const runs = workflow.jobs.test!.steps.map((s) => s.run);
    expect(runs).toEqual(expect.arrayContaining(['pnpm install --frozen-lockfile', 'pnpm lint', 'pnpm typecheck', 'bash .ci/run']));
  });

  test('builds an image of every target with buildx from infra/docker/Dockerfile', () => {
    const images = workflow.jobs.images!;
    expect(images.steps.some((s) => s.uses?.startsWith('docker/setup-buildx-action'))).toBe(true);
    const build = images.steps.find((s) => s.uses?.startsWith('docker/build-push-action'))!;
    expect(build.with).toMatchObject({ file: 'infra/docker/Dockerfile', 'build-args': 'APP=${{ matrix.app }}', target: '${{ matrix.target }}' });
    const matrix = images.strategy!.matrix.include;
    expect(matrix.map((m) => m.app).sort()).toEqual(Object.keys(IMAGE_TARGETS).sort());
    for (const m of matrix) expect(m.target).toBe(m.app === 'migrate' ? 'migrate' : 'service');
  });
});
