import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUS } from '../src/index.js';

/*
 * Every code of the list is answered by some route: the list is published in every OpenAPI
 * document (the error envelope's `code` enum), so a code nothing throws would promise clients
 * an answer that never comes. The sources of every app and package are searched for the
 * code as a string literal, outside the list itself.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const LIST = join(ROOT, 'packages', 'envelope', 'src', 'codes.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' ? [] : sources(path);
    return e.name.endsWith('.ts') && path !== LIST ? [path] : [];
  });
}

it('every error code is thrown somewhere in apps/*/src or packages/*/src', () => {
  const srcDirs = ['apps', 'packages']
    .flatMap((top) => readdirSync(join(ROOT, top)).map((name) => join(ROOT, top, name, 'src')))
    .filter((dir) => existsSync(dir));
  expect(srcDirs.length).toBeGreaterThan(10);
  const text = srcDirs.flatMap(sources).map((f) => readFileSync(f, 'utf8')).join('\n');
  const unused = Object.keys(ERROR_STATUS).filter((code) => !text.includes(`'${code}'`));
  expect(unused).toEqual([]);
});
