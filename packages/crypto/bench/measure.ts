/** Result of running one operation repeatedly for a fixed wall-clock budget. */
export interface Measurement {
  name: string;
  ops: number;
  opsPerSec: number;
  /** CPU time (user + system) per operation, in microseconds. */
  cpuUsPerOp: number;
}

/**
 * Runs `op` for about `ms` milliseconds after a short warm-up and reports throughput and CPU
 * time per call. `setup` runs outside the timed region (fresh nonces etc.) when given.
 */
export function measure<S>(name: string, op: (state: S) => unknown, setup: () => S, ms = 1000): Measurement {
  for (let i = 0; i < 20; i++) op(setup());
  const states: S[] = [];
  let ops = 0;
  let wall = 0;
  let cpu = 0;
  while (wall < ms) {
    // Batches keep setup out of the timings without timing each call separately.
    for (let i = 0; i < 20; i++) states.push(setup());
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const s of states) op(s);
    wall += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += c.user + c.system;
    ops += states.length;
    states.length = 0;
  }
  return { name, ops, opsPerSec: (ops / wall) * 1000, cpuUsPerOp: cpu / ops };
}

/** Prints measurements as an aligned table. */
export function printTable(title: string, rows: Measurement[]): void {
  console.log(`\n${title}`);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(46)} ${r.opsPerSec.toFixed(0).padStart(8)} ops/s   ${(r.cpuUsPerOp / 1000).toFixed(3).padStart(8)} ms CPU/op   (${r.ops} ops)`);
  }
}

/**
 * CPU of `op` / CPU of `baseline`, measured in alternating batches for about `ms` of wall time,
 * so that load from other processes drifting during the run weighs on both sides alike.
 */
export function cpuRatio<S>(op: (state: S) => unknown, setup: () => S, baseline: () => unknown, ms = 2000): { ratio: number; opUs: number; baseUs: number } {
  const cpuOf = (f: () => void) => {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    return c.user + c.system;
  };
  for (let i = 0; i < 10; i++) {
    op(setup());
    baseline();
  }
  let opCpu = 0, baseCpu = 0, opN = 0, baseN = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const states = Array.from({ length: 10 }, setup);
    opCpu += cpuOf(() => states.forEach(op));
    opN += states.length;
    baseCpu += cpuOf(() => { for (let i = 0; i < 10; i++) baseline(); });
    baseN += 10;
  }
  const opUs = opCpu / opN, baseUs = baseCpu / baseN;
  return { ratio: opUs / baseUs, opUs, baseUs };
}
