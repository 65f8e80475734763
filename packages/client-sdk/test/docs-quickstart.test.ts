// docs/client-sdk.md runs as written: its ```ts run blocks, in order, as one program against the
// real stack (gateway, tss-api on embedded PostgreSQL, three key share nodes, the in-process
// SMTP server for the email codes) and a local EVM node (ganache). A block that throws, or an
// `assert` in it that does not hold, fails this test.
import 'fake-indexeddb/auto'; // the browser's IndexedDB, so the docs can use IndexedDbShareStorage as an app does
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLocalEvm, type LocalEvmNode } from './helpers/ganache-node.js';
import { startStack, type Stack } from './support/stack.js';

const packageDir = join(import.meta.dirname, '..');
const docPath = join(packageDir, '..', '..', 'docs', 'client-sdk.md');
/** Outside src/ and test/ (not linted or type-checked as a source), removed after the run. */
const runDir = join(packageDir, '.docs-run');

/** The SDK's entry points as the docs import them -> the workspace sources. */
const ENTRY_POINTS: Record<string, string> = {
  '@svc/client-sdk': 'index.ts',
  '@svc/client-sdk/ethereum': 'ethereum.ts',
  '@svc/client-sdk/wagmi': 'wagmi.ts',
  '@svc/client-sdk/cosmos': 'cosmos.ts',
  '@svc/client-sdk/solana': 'solana.ts',
  '@svc/client-sdk/chains': 'chain-wallets.ts',
};

/** What the docs' preamble block declares: the values an app has, supplied here from the stack. */
const GIVEN = ['gatewayUrl', 'apiKey', 'email', 'readEmailCode', 'ethereumRpcUrl', 'assert'] as const;

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
 * One module: the blocks' imports merged at the top (specifiers of the SDK mapped to its
 * sources), their statements in order in `run(given)`, so a later block sees an earlier one's
 * variables as a reader of the page does.
 */
function quickstartModule(blocks: Block[]): string {
  const named = new Map<string, Set<string>>();
  const defaults = new Map<string, string>();
  const body: string[] = [];
  for (const block of blocks) {
    body.push(`// docs/client-sdk.md:${block.line}`);
    for (const line of block.code.split('\n')) {
      if (!line.startsWith('import ')) {
        body.push(line);
        continue;
      }
      const m = /^import (?:(\w+)|\{([^}]*)\}) from '([^']+)';$/.exec(line);
      if (!m) throw new Error(`docs/client-sdk.md:${block.line}: write imports on one line, as \`import { a } from 'x';\` or \`import a from 'x';\`: ${line}`);
      const source = ENTRY_POINTS[m[3]!] ? pathToFileURL(join(packageDir, 'src', ENTRY_POINTS[m[3]!]!)).href : m[3]!;
      if (m[1]) defaults.set(source, m[1]);
      else for (const name of m[2]!.split(',').map((s) => s.trim()).filter(Boolean)) named.set(source, (named.get(source) ?? new Set()).add(name));
    }
  }
  const imports = [
    ...[...defaults].map(([source, name]) => `import ${name} from '${source}';`),
    ...[...named].map(([source, names]) => `import { ${[...names].join(', ')} } from '${source}';`),
  ];
  return `${imports.join('\n')}\n\nexport async function run({ ${GIVEN.join(', ')} }) {\n${body.join('\n')}\n}\n`;
}

let stack: Stack;
let evm: LocalEvmNode;
beforeAll(async () => {
  [stack, evm] = await Promise.all([startStack(), startLocalEvm()]);
});
afterAll(async () => {
  rmSync(runDir, { recursive: true, force: true });
  await evm?.close();
  await stack?.stop();
});

describe('docs/client-sdk.md', () => {
  const markdown = readFileSync(docPath, 'utf8');

  it('declares in its preamble exactly what the test supplies', () => {
    const preamble = /```ts\n(\/\/ Given[\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    const declared = [...preamble.matchAll(/^declare (?:const|function) (\w+)/gm)].map((m) => m[1]);
    expect(declared.sort()).toEqual([...GIVEN].sort());
  });

  it('runs its quickstart blocks, in order, against the stack', async () => {
    const blocks = runnableBlocks(markdown);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    mkdirSync(runDir, { recursive: true });
    const file = join(runDir, 'quickstart.ts');
    writeFileSync(file, quickstartModule(blocks));

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
    const quickstart = (await import(pathToFileURL(file).href)) as { run(g: typeof given): Promise<void> };
    await quickstart.run(given);
    expect(mails.get(given.email)).toBeGreaterThanOrEqual(2); // the blocks did sign in by email, and again for the export
  }, 180_000);
});
