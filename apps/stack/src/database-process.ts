/**
 * The embedded PostgreSQL of `pnpm start`, held by a process of its own (started by
 * database.ts in a process group of its own). A terminal's Ctrl-C reaches the stack's process
 * group only, so the database keeps serving while the apps drain and is stopped last, by the
 * stack. Tells the stack where the databases are (IPC), then stops the database and exits on
 * SIGTERM or when the stack is gone (the IPC channel closes); exits 1 if the database dies.
 */
import { ensureDatabase } from '@svc/db';
import type { DatabaseProcessMessage } from './database.js';

const send = (message: DatabaseProcessMessage) => process.send!(message);
const extraDatabases = JSON.parse(process.env.STACK_EXTRA_DATABASES ?? '[]') as string[];

try {
  const database = await ensureDatabase({ extraDatabases });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('disconnect', () => void stop());
  void database.exited.then(() => stopping || process.exit(1));
  send({ ready: { url: database.url, databases: database.databases, embedded: database.embedded } });
} catch (error) {
  send({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
