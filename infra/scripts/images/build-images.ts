/**
 * Builds the six images from infra/docker/Dockerfile as the CI workflow does (same file,
 * target and APP build argument, the repository as context), one after the other so that the
 * shared layers (base, pnpm install) are built once and reused by the next build.
 */
import { join } from 'node:path';
import { IMAGE_TARGETS } from '../image-targets.js';
import { command } from './command.js';

export interface BuiltImage {
  app: string;
  tag: string;
  seconds: number;
  /** Uncompressed size of the whole image, and of its /app (the build output). */
  bytes: number;
  appBytes: number;
}

export const imageTag = (app: string) => `localhost/svc/${app}:test`;

export async function buildImages(repoRoot: string, nodeImage: string, log: string): Promise<BuiltImage[]> {
  const built: BuiltImage[] = [];
  // Behind a TLS-intercepting proxy (this machine's case) the build trusts the host's CA bundle.
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  for (const app of Object.keys(IMAGE_TARGETS)) {
    const tag = imageTag(app);
    const { ms } = await command(
      'buildah',
      [
        'bud', '--isolation', 'chroot', '--layers', '--force-rm', '--format', 'docker',
        '-f', join(repoRoot, 'infra', 'docker', 'Dockerfile'),
        '--ignorefile', join(repoRoot, 'infra', 'docker', 'Dockerfile.dockerignore'),
        '--target', app === 'migrate' ? 'migrate' : 'service',
        '--build-arg', `APP=${app}`,
        '--build-arg', `NODE_IMAGE=${nodeImage}`,
        ...(ca ? ['--secret', `id=ca,src=${ca}`] : []),
        '-t', tag, repoRoot,
      ],
      { log },
    );
    const bytes = Number((await command('podman', ['image', 'inspect', '--format', '{{.Size}}', tag])).stdout.trim());
    built.push({ app, tag, seconds: ms / 1000, bytes, appBytes: await appSize(tag) });
  }
  return built;
}

async function appSize(tag: string): Promise<number> {
  const cid = (await command('buildah', ['from', '--pull-never', tag])).stdout.trim();
  try {
    const root = (await command('buildah', ['mount', cid])).stdout.trim();
    return Number((await command('du', ['-sb', join(root, 'app')])).stdout.split('\t')[0]);
  } finally {
    await command('buildah', ['umount', cid]).catch(() => undefined);
    await command('buildah', ['rm', cid]);
  }
}
