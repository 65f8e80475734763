import { join } from 'node:path';
import { EnvReader } from '@svc/config';

export interface StackConfig {
  /** Where development secrets and mail go (default <repo>/.data). */
  dataDir: string;
  watch: boolean;
}

export function loadConfig(source: Record<string, string | undefined>, argv: string[], repoRoot: string): StackConfig {
  const env = new EnvReader(source);
  const config = {
    dataDir: env.string('STACK_DATA_DIR', join(repoRoot, '.data')),
    watch: argv.includes('--watch'),
  };
  env.done();
  return config;
}
