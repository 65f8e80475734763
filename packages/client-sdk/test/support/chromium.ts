import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';
import { extract } from 'tar-fs';

/*
 * Headless Chromium for the browser tests, installed by `pnpm install`: @sparticuz/chromium ships
 * a brotli-packed headless-shell build for x86-64 Linux together with the few libraries it needs
 * besides glibc (NSS, NSPR, expat), so no system browser or apt package is involved. Only those
 * two packed files are used (not the package's launcher: it unpacks into fixed /tmp paths, not
 * atomically, and its flags are AWS Lambda's); they are unpacked once per version into
 * node_modules/.cache, and playwright-core drives the browser.
 * CHROMIUM_PATH points the tests at another Chromium or Chrome instead (any other platform).
 */

// The flags that keep Chromium quiet on a machine without internet: no background connections,
// no component updates, no first-run work; root needs --no-sandbox.
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Executable {
  path: string;
  env: Record<string, string>;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts headless Chromium with a fresh profile directory, removed again by close(). */
export async function launchChromium(): Promise<Browser> {
  const executable = await chromiumExecutable();
  const userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-profile-'));
  const context = await chromium
    .launchPersistentContext(userDataDir, { executablePath: executable.path, headless: true, args: ARGS, env: executable.env })
    .catch((e: unknown) => {
      rmSync(userDataDir, { recursive: true, force: true });
      throw new Error(
        `headless Chromium (${executable.path}) did not start: ${(e as Error).message}\n` +
          'The packaged build runs on x86-64 Linux with glibc; elsewhere set CHROMIUM_PATH to a local Chromium or Chrome.',
      );
    });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

async function chromiumExecutable(): Promise<Executable> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const override = process.env.CHROMIUM_PATH;
  if (override) {
    if (!existsSync(override)) throw new Error(`CHROMIUM_PATH=${override} does not exist`);
    return { path: override, env: inherited };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`@sparticuz/chromium ships Chromium for x86-64 Linux only; on ${process.platform}/${process.arch} set CHROMIUM_PATH to a local Chromium or Chrome`);
  }
  const dir = await unpacked();
  const libs = join(dir, 'al2023', 'lib');
  // The packaged libraries first, so the same NSS that the build was made with is loaded.
  const ldPath = [libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { path: join(dir, 'chromium'), env: { ...inherited, LD_LIBRARY_PATH: ldPath } };
}

/**
 * The unpacked browser directory, made once per package version. Unpacking goes to a private
 * directory that is renamed into place when complete, so a run killed halfway or two test
 * processes starting together never leave or use a half-written binary.
 */
async function unpacked(): Promise<string> {
  const bin = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin');
  const { version } = JSON.parse(readFileSync(join(bin, '..', 'package.json'), 'utf8')) as { version: string };
  // In this package's node_modules/.cache, not the shared /tmp where another local user could
  // plant a binary under the expected name; removed with node_modules.
  const root = join(import.meta.dirname, '..', '..', 'node_modules', '.cache');
  const target = join(root, `svc-chromium-${version}`);
  if (existsSync(join(target, 'chromium'))) return target;

  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `svc-chromium-${version}-partial-`));
  try {
    await Promise.all([
      pipeline(createReadStream(join(bin, 'chromium.br')), createBrotliDecompress(), createWriteStream(join(staging, 'chromium'), { mode: 0o755 })),
      // lib/: NSS, NSPR and expat as the build expects them.
      pipeline(createReadStream(join(bin, 'al2023.tar.br')), createBrotliDecompress(), extract(join(staging, 'al2023'))),
    ]);
    renameSync(staging, target);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    // Another process finished first: its copy is as good as ours.
    if (existsSync(join(target, 'chromium'))) return target;
    throw e;
  }
  return target;
}
