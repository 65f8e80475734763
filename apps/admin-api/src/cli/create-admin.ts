/**
 * `pnpm admin:create`: creates an admin account (there is no default admin and no default
 * password). Email from --email, ADMIN_EMAIL or a prompt; password from --password-stdin,
 * ADMIN_PASSWORD or a hidden prompt (typed twice). Database: DATABASE_URL, or the embedded
 * one `pnpm start` uses; migrations are applied first. See docs/api/admin.md.
 */
import { parseArgs } from 'node:util';
import { openMainDatabase } from '@svc/accounts';
import { loadCreateAdminEnv } from '../env.js';
import { adminsRepo } from '../modules/admins/repo.js';
import { checkNewAdmin, createAdminAccount, CreateAdminError } from '../modules/admins/service.js';
import { ask, readStdin } from './prompt.js';

const USAGE = `Usage: pnpm admin:create [--email <email>] [--password-stdin]
  Email:    --email, else ADMIN_EMAIL, else asked.
  Password: --password-stdin (read from standard input), else ADMIN_PASSWORD, else asked (hidden, twice).
  Database: DATABASE_URL, else the embedded PostgreSQL of \`pnpm start\`.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, 'password-stdin': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const env = loadCreateAdminEnv();
  const interactive = process.stdin.isTTY === true;

  const email = values.email ?? env.email ?? (interactive ? await ask('Admin email: ') : undefined);
  let password = values['password-stdin'] ? await readStdin() : env.password;
  if (password === undefined && interactive) {
    password = await ask('Password (10-128 characters): ', true);
    if ((await ask('Repeat the password: ', true)) !== password) {
      console.error('The passwords differ; nothing was created.');
      return 1;
    }
  }
  if (!email || password === undefined) {
    console.error(`An email and a password are required.\n${USAGE}`);
    return 2;
  }

  try {
    checkNewAdmin(email, password);
  } catch (error) {
    console.error(`Not created: ${(error as Error).message}`);
    return 1;
  }
  const database = await openMainDatabase(env.database);
  try {
    const admin = await createAdminAccount(adminsRepo(database.db), email, password);
    console.log(`Created admin ${admin.email} (${admin.id}). Sign in with POST /svc_admin/v1/user/login.`);
    return 0;
  } catch (error) {
    if (error instanceof CreateAdminError) {
      console.error(`Not created: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

// Exit explicitly: a pool or driver may leave handles (and reset the exit code) after close.
process.exit(await main());
