import type { PrismaClient, TssActivationSetting } from '@svc/db';

// The singleton row (id 1); no row means the defaults (signing enabled). tss-api reads it
// before opening a signing session.
const SINGLETON = 1;

export function tssSettingsRepo(db: PrismaClient) {
  return {
    read(): Promise<TssActivationSetting | null> {
      return db.tssActivationSetting.findUnique({ where: { id: SINGLETON } });
    },

    write(signingEnabled: boolean): Promise<TssActivationSetting> {
      return db.tssActivationSetting.upsert({
        where: { id: SINGLETON },
        create: { id: SINGLETON, signingEnabled },
        update: { signingEnabled },
      });
    },
  };
}

export type TssSettingsRepo = ReturnType<typeof tssSettingsRepo>;
