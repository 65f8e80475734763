import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * One `pnpm start` per data directory: a second one would find the first one's database and
 * ports, and on its way out stop a database it does not own. The pid file is created
 * exclusively; one naming a process that is gone (a crash, a reboot) is taken over.
 */
export async function claimSingleInstance(pidFile: string): Promise<{ ok: true; release(): void } | { ok: false; pid: number }> {
  await mkdir(dirname(pidFile), { recursive: true });
  for (;;) {
    try {
      await writeFile(pidFile, `${process.pid}\n`, { flag: 'wx' });
      return { ok: true, release: () => rmSync(pidFile, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { ok: false, pid };
    await rm(pidFile, { force: true });
  }
}

/** Alive and a stack runner (not an unrelated process that got the pid after a reboot). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts');
  } catch {
    return true; // no /proc (macOS): trust the liveness check
  }
}
