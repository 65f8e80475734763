import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// CPU time of other processes, for the benches' per-process budgets (Linux /proc only).

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU ms (user + system) a process has used so far; NaN when it cannot be read. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted from after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * Starts counting the CPU time of every process named `postgres` (a server and its backends)
 * and returns how to read it: CPU ms used since the start, NaN without /proc or pgrep. Counted
 * per process, so a backend that exits meanwhile (an idle pooled connection closed) does not
 * take its earlier time out of the sum; what it used before exiting within the span is lost,
 * which for an idle connection is nothing.
 */
export function postgresCpuMeter(): () => number {
  const start = postgresProcesses();
  return () => {
    const now = postgresProcesses();
    if (!start || !now) return NaN;
    let sum = 0;
    for (const [pid, ms] of now) sum += ms - (start.get(pid) ?? 0);
    return sum;
  };
}

function postgresProcesses(): Map<number, number> | undefined {
  let pids: number[];
  try {
    pids = execFileSync('pgrep', ['-x', 'postgres']).toString().trim().split(/\s+/).map(Number);
  } catch {
    return undefined;
  }
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (Number.isFinite(ms)) cpu.set(pid, ms);
  }
  return cpu;
}
