import { basename, dirname, join, resolve, sep } from 'node:path';

/*
 * The layers inside an app (docs/architecture.md, "Layers: what may import what"); every app
 * with src/modules/ (tss-api, admin-api, dashboard-api) is shaped this way:
 *
 * - a module (src/modules/<name>/) imports its own files and the kernel (src/kernel/), never
 *   another module nor the app's own files (app.ts, guards.ts, env.ts, ...): modules are wired
 *   together in src/app.ts, the composition root, which may import everything;
 * - the kernel imports only itself;
 * - routes -> service -> repository: a routes.ts never holds the database (no PrismaClient or
 *   Prisma, no value of @svc/db, no repository) and a service.ts runs no SQL (no PrismaClient or
 *   Prisma).
 *
 * Packages (@svc/*, npm) are not this rule's business: their graph is in the package.json files.
 */

const LAYOUT = /^(.*[\\/]src)[\\/](?:(kernel)|modules[\\/]([^\\/]+))[\\/]/;
const SQL_NAMES = new Set(['PrismaClient', 'Prisma']);
const REPOSITORY = /(?:^|[-.])repo\.[jt]s$/;

/** The imported names of an import declaration, and whether it is `import type`. */
function importedNames(node) {
  if (node.type !== 'ImportDeclaration') return { names: [], typeOnly: node.exportKind === 'type' };
  const names = node.specifiers.map((s) => (s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : s.local.name));
  const typeOnly = node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
  return { names, typeOnly };
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'an app\'s modules import only its kernel and their own files; routes hold no database, services run no SQL' },
    schema: [],
    messages: {
      siblingModule: 'A module imports only src/kernel/ and its own files: `{{source}}` is in module "{{other}}". Move the shared concept into src/kernel/, or wire the two in src/app.ts.',
      appFile: 'A module imports only src/kernel/ and its own files: `{{source}}` belongs to the app (src/app.ts wires modules together).',
      kernelImportsApp: 'The kernel imports only the kernel: `{{source}}` is outside src/kernel/.',
      routeDatabase: 'A route never holds the database: `{{name}}` of @svc/db belongs in a repository, called through the module\'s service.',
      routeRepository: 'A route calls its service, never a repository (`{{source}}`).',
      serviceSql: 'A service runs no SQL: `{{name}}` of @svc/db belongs in the module\'s repo.ts or the kernel.',
    },
  },
  create(context) {
    const file = context.filename;
    const layout = LAYOUT.exec(file);
    if (!layout) return {};
    const [, src, kernel, module] = layout;
    const kernelDir = join(src, 'kernel') + sep;
    const ownDir = kernel ? kernelDir : join(src, 'modules', module) + sep;
    const role = basename(file);

    function check(node) {
      if (!node.source || typeof node.source.value !== 'string') return;
      const source = node.source.value;
      const report = (messageId, data) => context.report({ node: node.source, messageId, data: { source, ...data } });

      if (source.startsWith('.')) {
        const target = resolve(dirname(file), source);
        // An app's own generated Prisma client (keyshare-node's database) is its @svc/db.
        if (target.startsWith(join(src, 'generated') + sep)) {
          checkDatabaseImport(node);
          return;
        }
        if (target.startsWith(src + sep) && !target.startsWith(ownDir)) {
          if (kernel) report('kernelImportsApp');
          else if (!target.startsWith(kernelDir)) {
            const other = /^modules[\\/]([^\\/]+)[\\/]/.exec(target.slice(src.length + 1));
            if (other) report('siblingModule', { other: other[1] });
            else report('appFile');
          }
        }
        if (role === 'routes.ts' && REPOSITORY.test(basename(target))) report('routeRepository');
        return;
      }

      if (source === '@svc/db') checkDatabaseImport(node);
    }

    /** Routes hold no database and services run no SQL: what they may take of the database's module. */
    function checkDatabaseImport(node) {
      if (role !== 'routes.ts' && role !== 'service.ts') return;
      const report = (messageId, name) => context.report({ node: node.source, messageId, data: { source: node.source.value, name } });
      const { names, typeOnly } = importedNames(node);
      const sql = names.find((n) => SQL_NAMES.has(n));
      if (role === 'service.ts' && sql) report('serviceSql', sql);
      if (role === 'routes.ts' && (sql || !typeOnly)) report('routeDatabase', sql ?? (names.join(', ') || '*'));
    }

    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
    };
  },
};
