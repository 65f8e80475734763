import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * Code and docs cite the security invariants by number ("invariant 1") and the architecture by
 * section: every citation must land in docs/architecture.md, and every test that document
 * names for an invariant must exist.
 */

const root = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const thisFile = relative(root, import.meta.filename);

const SKIP_DIRS = new Set(['node_modules', 'dist', 'generated', 'coverage', '.data', '.cache', 'vectors']);
const TEXT = /\.(ts|js|mjs|md|prisma|sql|ya?ml)$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : textFiles(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

const sources = [...['apps', 'packages', 'docs', 'infra'].flatMap((d) => textFiles(join(root, d))), join(root, 'README.md')]
  .map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') }))
  .filter((s) => s.file !== 'docs/architecture.md' && s.file !== thisFile);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headings = [...doc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!);
const invariants = new Map(
  [...doc.matchAll(/^### Invariant (\d+): .+$\n([\s\S]*?)(?=^##|(?![\s\S]))/gm)].map((m) => [Number(m[1]), m[2]!] as const),
);

describe('docs/architecture.md', () => {
  it('numbers its security invariants 1..N, each naming at least one test that exists', () => {
    expect([...invariants.keys()]).toEqual(Array.from({ length: invariants.size }, (_, i) => i + 1));
    expect(invariants.size).toBeGreaterThanOrEqual(8);
    for (const [n, body] of invariants) {
      const tests = [...body.matchAll(/`((?:apps|packages|infra)\/[^`\s]+\.test\.ts)`/g)].map((m) => m[1]!);
      expect({ invariant: n, tests: tests.length > 0 }).toEqual({ invariant: n, tests: true });
      for (const test of tests) expect({ invariant: n, test, exists: existsSync(join(root, test)) }).toEqual({ invariant: n, test, exists: true });
    }
  });

  it('no file cites the design brief instead of the repository', () => {
    const citing = sources.filter((s) => /ARCHITECTURE/.test(s.text)).map((s) => s.file);
    expect(citing).toEqual([]);
  });

  it('every "invariant N" in code and docs is one of its invariants and points into it', () => {
    const bad: string[] = [];
    let cited = 0;
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/\binvariants? (\d+)/gi)) {
        cited++;
        const n = Number(m[1]);
        // The pointer may sit a line or two away (a heading, the next sentence of a comment).
        const near = text.slice(Math.max(0, m.index - 300), m.index + 300);
        if (!invariants.has(n)) bad.push(`${file}: invariant ${n} does not exist`);
        else if (!near.includes('architecture.md')) bad.push(`${file}: invariant ${n} does not point to docs/architecture.md`);
      }
    }
    expect(bad).toEqual([]);
    expect(cited).toBeGreaterThan(5);
  });

  it('every link into it names a heading it has', () => {
    const anchors = new Set(headings.map(slug));
    const bad = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/architecture\.md#([\w-]+)/g)].filter((m) => !anchors.has(m[1]!)).map((m) => `${file}: #${m[1]}`),
    );
    expect(bad).toEqual([]);
  });
});
