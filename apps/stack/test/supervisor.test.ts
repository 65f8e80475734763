import { createSupervisor, type Part, type Running } from '../src/supervisor.js';

/** A part whose runs are controlled by the test: crash() ends the current run on its own. */
function fakePart(name: string, layer: number, events: string[]) {
  let exit: ((code: number | null) => void) | undefined;
  let starts = 0;
  const part: Part = {
    name,
    layer,
    async start(): Promise<Running> {
      starts += 1;
      events.push(`start ${name}`);
      const exited = new Promise<number | null>((resolve) => (exit = resolve));
      return {
        exited,
        stop: async () => {
          events.push(`stop ${name}`);
          exit?.(0);
        },
      };
    },
  };
  return { part, crash: (code: number | null = 1) => exit?.(code), starts: () => starts };
}

const policy = { maxCrashes: 3, windowMs: 10_000, baseDelayMs: 20, maxDelayMs: 100 };
const until = async (condition: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

test('a crashed part is restarted with a doubling delay; a crash loop gives up once', async () => {
  const events: string[] = [];
  const logs: string[] = [];
  const loops: string[] = [];
  const supervisor = createSupervisor({ log: (l) => logs.push(l), onCrashLoop: (name) => loops.push(name), policy });
  const app = fakePart('app', 1, events);
  await supervisor.add(app.part);

  app.crash(1);
  await until(() => app.starts() === 2);
  app.crash(null);
  await until(() => app.starts() === 3);
  expect(logs.filter((l) => l.includes('restarting'))).toEqual([
    'app exited with code 1; restarting in 20 ms (crash 1 within 10 s)',
    'app exited with code null; restarting in 40 ms (crash 2 within 10 s)',
  ]);
  app.crash(1);
  await until(() => loops.length === 1);
  expect(loops).toEqual(['app']);
  expect(logs.at(-1)).toBe('app exited with code 1: 3 crashes within 10 s, giving up');
  await new Promise((r) => setTimeout(r, 150));
  expect(app.starts()).toBe(3); // not restarted after giving up
  await supervisor.stopAll();
});

test('stopAll stops the apps before their database and restarts nothing afterwards', async () => {
  const events: string[] = [];
  const supervisor = createSupervisor({ log: () => undefined, onCrashLoop: () => undefined, policy });
  const db = fakePart('db', 0, events);
  const a = fakePart('a', 1, events);
  const b = fakePart('b', 1, events);
  for (const p of [db, a, b]) await supervisor.add(p.part);
  await supervisor.stopAll();
  expect(events.slice(3)).toEqual(['stop a', 'stop b', 'stop db']);
  db.crash(1);
  await new Promise((r) => setTimeout(r, 100));
  expect(db.starts()).toBe(1);
});
