/**
 * Validation of rendered objects against the Kubernetes OpenAPI schemas as packaged by the
 * npm package `kubernetes-models` (its models are generated from the Kubernetes OpenAPI
 * document): 
 *  1. each model's own validator (types, formats such as quantities, required fields, enums);
 *  2. unknown fields, which that validator lets through (the schemas allow additional
 *     properties): each object is type-checked as an object literal against the package's
 *     generated TypeScript interface, so TypeScript's excess-property check names any field
 *     the schema does not have (a misspelt `livenessProbee` would otherwise pass).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import type { K8sObject } from '../scripts/kustomize.js';
import { idOf } from '../scripts/kustomize.js';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** kubernetes-models module of an apiVersion/kind: core "v1" -> v1/Kind, "apps/v1" -> apps/v1/Kind. */
export function modelModule(o: Pick<K8sObject, 'apiVersion' | 'kind'>): string {
  return `kubernetes-models/${o.apiVersion}/${o.kind}`;
}

export async function validateWithModels(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const o of objects) {
    let Model: ModelClass;
    try {
      const mod = (await import(modelModule(o))) as Record<string, ModelClass>;
      const found = mod[o.kind];
      if (!found) throw new Error('no model');
      Model = found;
    } catch {
      problems.push(`${idOf(o)}: no Kubernetes schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (error) {
      problems.push(`${idOf(o)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

const infraDir = join(import.meta.dirname, '..');

/** Unknown fields, by TypeScript's excess-property check against the models' interfaces. */
export async function findUnknownFields(objects: K8sObject[]): Promise<string[]> {
  // Inside infra/ so that `kubernetes-models` resolves from infra/node_modules.
  const dir = await mkdtemp(join(infraDir, '.manifest-check-'));
  try {
    const lines = objects.map((o, i) => {
      const iface = `I${o.kind}`;
      return `import type { ${iface} as T${i} } from '${modelModule(o)}';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`;
    });
    const file = join(dir, 'manifests.ts');
    await writeFile(file, `${lines.join('\n')}\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    const source = program.getSourceFile(file);
    return ts.getPreEmitDiagnostics(program, source).map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const index = Math.floor(line / 2);
      const owner = objects[index];
      return `${owner ? idOf(owner) : 'manifest'}: ${message}`;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
