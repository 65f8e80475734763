import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DevSecrets } from './services.js';

/**
 * Development secrets, generated once per machine and kept beside the embedded database so
 * that its encrypted data still opens after a restart. There is no default secret anywhere:
 * production configuration must provide its own.
 */
export async function loadDevSecrets(path: string, nodeNames: string[]): Promise<DevSecrets> {
  if (existsSync(path)) {
    const stored = JSON.parse(await readFile(path, 'utf8')) as DevSecrets;
    if (stored.emailIdTokenPrivateKey && nodeNames.every((n) => stored.nodeEncryptionKeys[n])) return stored;
  }
  const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
  const secrets: DevSecrets = {
    jwtSecret: randomBytes(48).toString('base64url'),
    shareEncryptionKeys: key('dev1'),
    nodeEncryptionKeys: Object.fromEntries(nodeNames.map((n) => [n, key('dev1')])),
    // The key tss-api signs email-login ID tokens with; kept so tokens survive a restart.
    emailIdTokenPrivateKey: JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })),
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
