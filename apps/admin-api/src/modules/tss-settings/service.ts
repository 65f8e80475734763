import type { TssActivationSetting } from '@svc/db';
import type { TssSettingsRepo } from './repo.js';

function view(row: TssActivationSetting | null) {
  return { signing_enabled: row?.signingEnabled ?? true, updated_at: row?.updatedAt.toISOString() ?? null };
}

/** The service-wide TSS activation setting. */
export function tssSettingsService(repo: TssSettingsRepo) {
  return {
    async get() {
      return view(await repo.read());
    },

    async set(signingEnabled: boolean) {
      return view(await repo.write(signingEnabled));
    },
  };
}

export type TssSettingsService = ReturnType<typeof tssSettingsService>;
