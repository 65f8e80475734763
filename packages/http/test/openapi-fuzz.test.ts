import { createServiceApp, defineRoute, field, listen, type RunningServer } from '../src/index.js';
import { describeReport, fuzzOpenApi } from '../src/testing.js';

/** The fuzz kit finds what it is meant to find: a 5xx, an answer outside the envelope, a stray write. */
describe('fuzzOpenApi', () => {
  let server: RunningServer;
  let writes = 0;
  const { app, openapi } = createServiceApp({
    name: 'fuzz-target',
    logger: undefined,
    routes: [
      defineRoute({
        method: 'post',
        path: '/v1/fragile',
        summary: 'fails on a long name, as a column limit would',
        body: { name: field.string() },
        handler: (req) => {
          if ((req.body.name as string).length > 100) throw new Error('value too long for type character varying(100)');
          return { ok: true };
        },
      }),
      defineRoute({
        method: 'post',
        path: '/v1/raw',
        summary: 'answers outside the envelope',
        body: { n: field.int({ min: 0, max: 9 }) },
        handler: (_req, res) => {
          res.json({ n: 1 });
        },
      }),
      defineRoute({
        method: 'get',
        path: '/v1/items/:item_id',
        summary: 'writes where it should only read',
        params: { item_id: field.uuid() },
        handler: (req) => {
          if (String(req.params.item_id).startsWith('f')) writes++;
          return null;
        },
      }),
    ],
  });

  beforeAll(async () => {
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close(0));

  it('reports 5xx, answers outside the envelope and tables changed by an operation that may not write them', async () => {
    const report = await fuzzOpenApi({
      baseUrl: `http://127.0.0.1:${server.port}`,
      openapi,
      credentials: {},
      skip: ['GET /metrics', 'GET /health', 'GET /ready'],
      tables: { digest: async () => ({ items: String(writes) }), writers: { items: [] } },
      runs: 300,
      seed: 1,
    });
    expect(report.requests).toBe(300);
    expect(report.operations.sort()).toEqual(['GET /v1/items/{item_id}', 'POST /v1/fragile', 'POST /v1/raw']);
    expect(report.serverErrors).toBeGreaterThan(0);
    expect(report.outsideEnvelope).toBeGreaterThan(0);
    expect(report.tableChanges).toBeGreaterThan(0);
    expect(report.samples.some((s) => s.request.startsWith('POST /v1/fragile') && s.status === 500)).toBe(true);
    expect(report.samples.some((s) => s.request.startsWith('POST /v1/raw') && s.answer.startsWith('2xx without the success envelope'))).toBe(true);
    expect(describeReport(report)).toMatch(/^300 requests over 3 operations; [1-9]\d* x 5xx/);
  }, 60_000);
});
