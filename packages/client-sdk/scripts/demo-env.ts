import { join } from 'node:path';
import { EnvReader } from '@svc/config';
import { repositoryRoot } from '@svc/db';

export interface DemoConfig {
  /** The gateway of `pnpm start` (DEMO_GATEWAY_URL, default http://localhost:4200). */
  gatewayUrl: string;
  /** An app API key (SVC_API_KEY); when unset the demo creates a customer and key in the main database. */
  apiKey?: string;
  /** Where `pnpm start`'s development mail server writes each mail as JSON (MAIL_SPOOL_DIR, default <repo>/.data/mail). */
  mailSpoolDir: string;
  /** The node whose data the demo wipes (DEMO_WIPE_NODE, default node-2) and its database name. */
  wipeNode: string;
}

export function loadDemoConfig(source: Record<string, string | undefined>): DemoConfig {
  const env = new EnvReader(source);
  const apiKey = env.optionalString('SVC_API_KEY');
  const config: DemoConfig = {
    gatewayUrl: env.url('DEMO_GATEWAY_URL', 'http://localhost:4200'),
    ...(apiKey ? { apiKey } : {}),
    mailSpoolDir: env.string('MAIL_SPOOL_DIR', join(repositoryRoot(), '.data', 'mail')),
    wipeNode: env.string('DEMO_WIPE_NODE', 'node-2'),
  };
  env.done();
  return config;
}
