import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, type Stack } from './support/stack.js';

/*
 * Spec §4's route table, kept as a fixture (test/fixtures/spec-routes.json), walked against the
 * mounted apps: each row must be in its service's OpenAPI document as served by the gateway's
 * /docs/specs/:service (or the node's /docs/openapi.json), and a request to it, without
 * credentials or body, must reach a route: any envelope answer but the router's "Route ... not
 * found". A renamed, dropped or unmounted spec route fails here.
 */
interface SpecRoute {
  section: string;
  service: 'tss-api' | 'admin-api' | 'dashboard-api' | 'keyshare-node';
  method: 'GET' | 'POST';
  path: string;
}

const { routes } = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'spec-routes.json'), 'utf8')) as { routes: SpecRoute[] };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const baseOf = (route: SpecRoute) => (route.service === 'keyshare-node' ? stack.nodes.nodes[0]!.endpoint : stack.gatewayUrl);

async function documentOf(route: SpecRoute): Promise<{ paths: Record<string, Record<string, unknown>> }> {
  const url = route.service === 'keyshare-node' ? `${baseOf(route)}/docs/openapi.json` : `${stack.gatewayUrl}/docs/specs/${route.service}`;
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as { paths: Record<string, Record<string, unknown>> };
}

describe('spec §4 route table against the mounted apps', () => {
  it('holds every row of §4.1 to §4.5', () => {
    expect(new Set(routes.map((r) => r.section))).toEqual(new Set(['4.1', '4.2', '4.3', '4.4', '4.5']));
    expect(routes).toHaveLength(29);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s is documented and answered', async (_name, route) => {
    const doc = await documentOf(route);
    expect(Object.keys(doc.paths[route.path] ?? {})).toContain(route.method.toLowerCase());

    const url = `${baseOf(route)}${route.path.replace('{customer_id}', randomUUID())}`;
    const res = await fetch(url, { method: route.method, ...(route.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
    const body = (await res.json()) as { success: boolean; code?: string; msg?: string };
    expect(body.success).toBe(false);
    expect({ status: res.status, code: body.code }).not.toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(body.msg).not.toMatch(/^Route .* not found$/);
  });
});
