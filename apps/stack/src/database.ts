import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { terminate, TSX_LOADER } from './processes.js';

export interface StackDatabases {
  url: string;
  databases: Record<string, string>;
  embedded: boolean;
}

/** What database-process.ts tells the stack once: where the databases are, or why it failed. */
export type DatabaseProcessMessage = { ready: StackDatabases } | { error: string };

export interface DatabaseProcess {
  databases: StackDatabases;
  /** Resolves with the exit code when the process ends (the database died, or after stop()). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 30_000;

/**
 * Starts database-process.ts in a process group of its own (see there) and waits until it says
 * where the databases are. A failure to start rejects with that process's own message.
 */
export function startDatabaseProcess(extraDatabases: string[]): Promise<DatabaseProcess> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(import.meta.dirname, 'database-process.ts')], {
    env: { ...process.env, STACK_EXTRA_DATABASES: JSON.stringify(extraDatabases) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = () => terminate(child, exited, STOP_GRACE_MS);
  return new Promise((resolve, reject) => {
    child.once('message', (message: DatabaseProcessMessage) => {
      if ('ready' in message) resolve({ databases: message.ready, exited, stop });
      else reject(new Error(message.error));
    });
    void exited.then((code) => reject(new Error(`the database process exited with code ${code} before it was ready`)));
  });
}
