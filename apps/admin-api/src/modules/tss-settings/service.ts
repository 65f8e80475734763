import type { PrismaClient, TssActivationSetting } from '@svc/db';
import { readActivationSetting, writeActivationSetting } from './repo.js';

function view(row: TssActivationSetting | null) {
  return { signing_enabled: row?.signingEnabled ?? true, updated_at: row?.updatedAt.toISOString() ?? null };
}

export async function getActivationSetting(db: PrismaClient) {
  return view(await readActivationSetting(db));
}

export async function setActivationSetting(db: PrismaClient, signingEnabled: boolean) {
  return view(await writeActivationSetting(db, signingEnabled));
}
