/**
 * Keeps each part of the stack running: a part that exits on its own (crash, killed) is
 * started again after a backoff that doubles with every recent crash, and the stack gives up
 * only when a part keeps crashing (a crash loop says something is broken that a restart
 * will not fix, such as bad configuration).
 */
export interface Running {
  /** Resolves with the exit code (null: killed by a signal) when the part stops on its own. */
  exited: Promise<number | null>;
  /** Stops it on purpose (then `exited` is not treated as a crash). */
  stop(): Promise<void>;
}

export interface Part {
  name: string;
  /** Parts of a higher layer are stopped first, those of one layer together (apps 1, their database 0). */
  layer: number;
  start(): Promise<Running>;
}

export interface RestartPolicy {
  /** This many crashes of one part within `windowMs` stop the stack. */
  maxCrashes: number;
  windowMs: number;
  /** Delay before the first restart; doubled for each further crash within the window. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { maxCrashes: 5, windowMs: 60_000, baseDelayMs: 500, maxDelayMs: 10_000 };

export interface Supervisor {
  /** Starts the part and watches it. */
  add(part: Part): Promise<void>;
  /** Stops restarting, then stops every part, layer by layer from the highest. */
  stopAll(): Promise<void>;
}

export function createSupervisor(options: {
  log: (line: string) => void;
  /** Called once when a part crashes `maxCrashes` times within the window. */
  onCrashLoop: (name: string) => void;
  policy?: RestartPolicy;
}): Supervisor {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  const parts: { part: Part; running?: Running; restart?: NodeJS.Timeout }[] = [];
  let stopping = false;

  const watch = (entry: (typeof parts)[number], crashes: number[]) => {
    const running = entry.running!;
    void running.exited.then((code) => {
      if (stopping || entry.running !== running) return;
      entry.running = undefined;
      const now = Date.now();
      const recent = [...crashes.filter((t) => now - t < policy.windowMs), now];
      if (recent.length >= policy.maxCrashes) {
        options.log(`${entry.part.name} exited with code ${code}: ${recent.length} crashes within ${policy.windowMs / 1000} s, giving up`);
        options.onCrashLoop(entry.part.name);
        return;
      }
      const delay = Math.min(policy.baseDelayMs * 2 ** (recent.length - 1), policy.maxDelayMs);
      options.log(`${entry.part.name} exited with code ${code}; restarting in ${delay} ms (crash ${recent.length} within ${policy.windowMs / 1000} s)`);
      entry.restart = setTimeout(() => void launch(entry, recent), delay);
    });
  };

  const launch = async (entry: (typeof parts)[number], crashes: number[]) => {
    if (stopping) return;
    try {
      entry.running = await entry.part.start();
    } catch (error) {
      // A failed start counts as a crash, so that it is retried with backoff too.
      entry.running = { exited: Promise.resolve(1), stop: async () => undefined };
      options.log(`${entry.part.name} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
    if (stopping) return void (await entry.running.stop());
    options.log(`${entry.part.name} restarted`);
    watch(entry, crashes);
  };

  return {
    async add(part) {
      const entry: (typeof parts)[number] = { part };
      parts.push(entry);
      entry.running = await part.start();
      watch(entry, []);
    },
    async stopAll() {
      stopping = true;
      for (const entry of parts) clearTimeout(entry.restart);
      const layers = [...new Set(parts.map((e) => e.part.layer))].sort((a, b) => b - a);
      for (const layer of layers) await Promise.all(parts.filter((e) => e.part.layer === layer).map((e) => e.running?.stop()));
    },
  };
}
