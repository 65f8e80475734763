import { readFileSync, readdirSync } from 'node:fs';
import { listMountedRoutes, toOpenApiPath } from '@svc/http';
import { startHarness, type Harness } from './support/harness.js';

describe('documentation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('the OpenAPI document at /docs covers every mounted route', async () => {
    const doc = (await (await fetch(`${h.baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const mounted = listMountedRoutes(h.api.app).filter((r) => !r.includes('/docs'));
    expect(mounted.length).toBeGreaterThan(12);
    for (const route of mounted) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[toOpenApiPath(path)]?.[method.toLowerCase()]).toBeDefined();
    }
  });

  it('docs/api/tss-*.md name every /tss route', () => {
    const dir = new URL('../../../docs/api/', import.meta.url);
    const text = readdirSync(dir)
      .filter((f) => f.startsWith('tss-') && f.endsWith('.md'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    for (const route of listMountedRoutes(h.api.app).filter((r) => r.includes(' /tss/'))) {
      expect(text).toContain(route);
    }
  });
});
