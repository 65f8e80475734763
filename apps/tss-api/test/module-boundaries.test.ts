import { join } from 'node:path';
import { Linter } from 'eslint';
import config from '../eslint.config.js';

/*
 * The lint rule that keeps tss-api's layers (@svc/tooling's lint/module-boundaries.js, docs/architecture.md
 * "Layers"), run through the app's real ESLint config on snippets placed at paths of the tree.
 */

const app = join(import.meta.dirname, '..');
const linter = new Linter({ cwd: app });

/** The messages of the layering rule for `code` as if it were the file at `path` (relative to the app). */
function boundaryErrors(path: string, code: string): string[] {
  return linter
    .verify(code, config, { filename: join(app, path) })
    .map((m) => (m.ruleId === 'svc/module-boundaries' ? m.messageId! : `${m.ruleId ?? 'parse'}: ${m.message}`));
}

describe('module boundaries of the apps (lint rule, run through tss-api\u2019s config)', () => {
  it('refuses a module importing a sibling module, in any form', () => {
    expect(boundaryErrors('src/modules/keygen/service.ts', "import { usersService } from '../users/service.js';\nvoid usersService;\n")).toEqual(['siblingModule']);
    expect(boundaryErrors('src/modules/keygen/service.ts', "import type { UsersService } from '../users/service.js';\nexport type X = UsersService;\n")).toEqual(['siblingModule']);
    expect(boundaryErrors('src/modules/keyshare/routes.ts', "export { usersRepo } from '../../modules/users/service.js';\n")).toEqual(['siblingModule']);
    expect(boundaryErrors('src/modules/ecdsa-sign/service.ts', "export const load = () => import('../ecdsa-presign/repo.js');\n")).toEqual(['siblingModule']);
  });

  it('refuses a module importing the app\u2019s own files, and the kernel importing outside itself', () => {
    expect(boundaryErrors('src/modules/users/routes.ts', "import type { TssApiConfig } from '../../env.js';\nexport type C = TssApiConfig;\n")).toEqual(['appFile']);
    expect(boundaryErrors('src/kernel/caller.ts', "import type { UsersService } from '../modules/users/service.js';\nexport type U = UsersService;\n")).toEqual(['kernelImportsApp']);
    expect(boundaryErrors('src/kernel/sessions/claim.ts', "import { createApp } from '../../app.js';\nvoid createApp;\n")).toEqual(['kernelImportsApp']);
  });

  it('lets a module import its own files, the kernel and packages, and the app import every module', () => {
    const module = [
      "import { randomUUID } from 'node:crypto';",
      "import { AppError } from '@svc/envelope';",
      "import type { Caller } from '../../kernel/caller.js';",
      "import type { ClaimSessionState } from '../../kernel/sessions/claim.js';",
      "import type { EcdsaSignRepo } from './repo.js';",
      'export type T = [Caller, ClaimSessionState, EcdsaSignRepo, AppError];',
      'void randomUUID;',
    ].join('\n');
    expect(boundaryErrors('src/modules/ecdsa-sign/service.ts', module)).toEqual([]);
    expect(boundaryErrors('src/kernel/ecdsa/claim-step.ts', "import type { ClaimSessionState } from '../sessions/claim.js';\nexport type C = ClaimSessionState;\n")).toEqual([]);
    expect(boundaryErrors('src/app.ts', "import { usersService } from './modules/users/service.js';\nimport { keygenService } from './modules/keygen/service.js';\nvoid [usersService, keygenService];\n")).toEqual([]);
  });

  it('refuses a route holding the database or a repository, and a service holding the SQL client', () => {
    expect(boundaryErrors('src/modules/ecdsa-pool/routes.ts', "import type { PrismaClient } from '@svc/db';\nexport type D = PrismaClient;\n")).toEqual(['routeDatabase']);
    expect(boundaryErrors('src/modules/ecdsa-pool/routes.ts', "import { pingDb } from '@svc/db';\nvoid pingDb;\n")).toEqual(['routeDatabase']);
    expect(boundaryErrors('src/modules/ecdsa-pool/routes.ts', "import { ecdsaPoolRepo } from './repo.js';\nvoid ecdsaPoolRepo;\n")).toEqual(['routeRepository']);
    expect(boundaryErrors('src/modules/sign-completion/routes.ts', "import type { SessionsRepo } from '../../kernel/sessions/repo.js';\nexport type R = SessionsRepo;\n")).toEqual(['routeRepository']);
    expect(boundaryErrors('src/modules/ecdsa-triples/service.ts', "import type { PrismaClient } from '@svc/db';\nexport type D = PrismaClient;\n")).toEqual(['serviceSql']);
    // Types that name no client (an enum of the schema) and the database's error helpers are fine.
    expect(boundaryErrors('src/modules/users/routes.ts', "import type { AuthType } from '@svc/db';\nexport type A = AuthType;\n")).toEqual([]);
    expect(boundaryErrors('src/modules/keygen/service.ts', "import { isUniqueViolation, type Curve } from '@svc/db';\nexport type C = Curve;\nvoid isUniqueViolation;\n")).toEqual([]);
    // An app's own generated Prisma client (keyshare-node has one) counts as its @svc/db.
    expect(boundaryErrors('src/modules/keyshare/service.ts', "import type { PrismaClient } from '../../generated/prisma/client.js';\nexport type D = PrismaClient;\n")).toEqual(['serviceSql']);
    expect(boundaryErrors('src/modules/keyshare/routes.ts', "import { Prisma } from '../../generated/prisma/client.js';\nvoid Prisma;\n")).toEqual(['routeDatabase']);
    expect(boundaryErrors('src/modules/keyshare/repo.ts', "import type { Curve, Prisma } from '../../generated/prisma/client.js';\nexport type C = [Curve, Prisma.TransactionClient];\n")).toEqual([]);
  });
});
