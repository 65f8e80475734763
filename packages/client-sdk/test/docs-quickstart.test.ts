// docs/client-sdk.md runs as written: its ```ts run blocks, in order, as one program against the
// real stack (gateway, tss-api on embedded PostgreSQL, three key share nodes, the in-process
// SMTP server for the email codes) and a local EVM node (ganache). A block that throws, or an
// `assert` in it that does not hold, fails this test.
import 'fake-indexeddb/auto'; // the browser's IndexedDB, so the docs can use IndexedDbShareStorage as an app does
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { startStack, type Stack } from './support/stack.js';

const packageDir = join(import.meta.dirname, '..');
const docPath = join(packageDir, '..', '..', 'docs', 'client-sdk.md');
/** Outside src/ and test/ (not linted or type-checked as a source), removed after the run. */
const runDir = join(packageDir, '.docs-run');

/** The SDK's entry points as the docs import them -> the workspace sources (relative to runDir). */
const ENTRY_POINTS: Record<string, string> = {
  '@svc/client-sdk': '../src/index.js',
  '@svc/client-sdk/ethereum': '../src/ethereum.js',
  '@svc/client-sdk/wagmi': '../src/wagmi.js',
  '@svc/client-sdk/cosmos': '../src/cosmos.js',
  '@svc/client-sdk/solana': '../src/solana.js',
  '@svc/client-sdk/chains': '../src/chain-wallets.js',
};

interface Block {
  line: number;
  code: string;
}

/** The ```ts run blocks of a markdown text, in order (`line`: where the block starts, 1-based). */
function runnableBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ts run\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`unterminated block at line ${i + 1}`);
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/**
 * The preamble block's `declare const x: T;` / `declare function f(...): R;` lines: what the app
 * provides. Each becomes a typed constant read from the test's `given` object.
 */
function preambleDeclarations(markdown: string): { name: string; binding: string }[] {
  const preamble = /```ts\n(\/\/ Given[\s\S]*?)```/.exec(markdown)?.[1];
  if (!preamble) throw new Error('docs/client-sdk.md has no "// Given" preamble block');
  return [...preamble.matchAll(/^declare (const|function) (\w+)(.*?);(?: \/\/.*)?$/gm)].map(([, kind, name, rest]) => {
    const type = kind === 'const' ? rest!.replace(/^: /, '') : rest!.replace(/^(\(.*\)): (.*)$/, '$1 => $2');
    return { name: name!, binding: `const ${name}: ${type} = given.${name};` };
  });
}

/**
 * One module: the blocks' imports merged at the top (specifiers of the SDK mapped to its
 * sources), their statements in order in `run(given)`, so a later block sees an earlier one's
 * variables as a reader of the page does.
 */
function quickstartModule(markdown: string, blocks: Block[]): string {
  const named = new Map<string, Set<string>>();
  const defaults = new Map<string, string>();
  const body: string[] = [];
  for (const block of blocks) {
    body.push(`block = ${block.line};`);
    for (const line of block.code.split('\n')) {
      if (!line.startsWith('import ')) {
        body.push(line);
        continue;
      }
      const m = /^import (?:(\w+)|\{([^}]*)\}) from '([^']+)';$/.exec(line);
      if (!m) throw new Error(`docs/client-sdk.md:${block.line}: write imports on one line, as \`import { a } from 'x';\` or \`import a from 'x';\`: ${line}`);
      const source = ENTRY_POINTS[m[3]!] ?? m[3]!;
      if (m[1]) defaults.set(source, m[1]);
      else for (const name of m[2]!.split(',').map((s) => s.trim()).filter(Boolean)) named.set(source, (named.get(source) ?? new Set()).add(name));
    }
  }
  const imports = [
    ...[...defaults].map(([source, name]) => `import ${name} from '${source}';`),
    ...[...named].map(([source, names]) => `import { ${[...names].join(', ')} } from '${source}';`),
  ];
  // A failure names the block it came from (`block`: its line in the page).
  return [
    ...imports,
    '',
    'export async function run(given: any): Promise<void> {',
    ...preambleDeclarations(markdown).map((d) => `  ${d.binding}`),
    '  let block = 0;',
    '  try {',
    ...body,
    '  } catch (err) {',
    '    throw new Error(`docs/client-sdk.md:${block}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });',
    '  }',
    '}',
    '',
  ].join('\n');
}

const markdown = readFileSync(docPath, 'utf8');
const blocks = runnableBlocks(markdown);
const modulePath = join(runDir, 'quickstart.ts');

let stack: Stack;
let evm: LocalEvmNode;
beforeAll(async () => {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(modulePath, quickstartModule(markdown, blocks));
  writeFileSync(join(runDir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['quickstart.ts'] }));
  [stack, evm] = await Promise.all([startStack(), startLocalEvm()]);
});
afterAll(async () => {
  rmSync(runDir, { recursive: true, force: true });
  await evm?.close();
  await stack?.stop();
});

describe('docs/client-sdk.md', () => {
  it('has a quickstart of runnable blocks that type-checks as written (strict, against the SDK sources)', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', join(runDir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('runs its quickstart blocks, in order, against the stack', async () => {
    const mails = new Map<string, number>();
    const given = {
      gatewayUrl: stack.gatewayUrl,
      apiKey: stack.apiKey,
      email: 'quickstart@example.com',
      /** The code of the next mail to `address` (each call waits for one more mail). */
      readEmailCode: (address: string) => {
        const n = (mails.get(address) ?? 0) + 1;
        mails.set(address, n);
        return stack.emailCode(address, n);
      },
      ethereumRpcUrl: evm.url,
      assert: (condition: unknown, message = 'assertion failed') => {
        if (!condition) throw new Error(message);
      },
    };
    // The preamble declares exactly what is supplied here.
    expect(preambleDeclarations(markdown).map((d) => d.name).sort()).toEqual(Object.keys(given).sort());

    const quickstart = (await import(pathToFileURL(modulePath).href)) as { run(g: typeof given): Promise<void> };
    await quickstart.run(given);
    expect(mails.get(given.email)).toBe(3); // sign-in, the new device, the export's fresh sign-in
  }, 180_000);
});
