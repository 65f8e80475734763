import request from 'supertest';
import { defineContract, field } from '@svc/contract';
import { AppError } from '@svc/envelope';
import { bindRoute, createLogger, createServiceApp, defineRoute, type Guard } from '../src/index.js';
import { observeResponses, responseChecker } from '../src/testing.js';

const contract = defineContract({
  method: 'post',
  path: '/v1/things',
  summary: 'a thing',
  auth: ['apiKey'],
  body: { name: field.string({ min: 1, max: 20 }) },
  errors: ['INVALID_API_KEY', 'USER_NOT_FOUND'],
  response: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
});

const apiKey: Guard = {
  name: 'apiKey',
  scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  middleware: (req, _res, next) => next(req.get('x-api-key') === 'k' ? undefined : new AppError('INVALID_API_KEY', 'Invalid API key')),
};

const ID = '7d3f1c2e-9a4b-4c5d-8e6f-0a1b2c3d4e5f';

/** A route that answers whatever the request asks for, to hold answers against the contract. */
function app() {
  const route = bindRoute(contract, {
    guards: [apiKey],
    handler: (req) => {
      if (req.body.name === 'missing') throw new AppError('USER_NOT_FOUND', 'User not found');
      if (req.body.name === 'forbidden') throw new AppError('FORBIDDEN', 'Forbidden');
      // Type-checked against the contract; the casts make the wrong answers this test needs.
      if (req.body.name === 'no-id') return { name: 'x' } as unknown as { id: string; name: string };
      if (req.body.name === 'bad-id') return { id: 'not-a-uuid', name: 'x' };
      return { id: ID, name: req.body.name };
    },
  });
  const raw = defineRoute({ method: 'get', path: '/v1/raw', summary: 'not the envelope', handler: (_req, res) => void res.json({ keys: [] }) });
  return createServiceApp({ name: 'check-test', routes: [route, raw], logger: createLogger('check-test', 'silent') }).app;
}

describe('checking answers against their declaration', () => {
  const seen: string[] = [];
  const check = responseChecker();
  beforeAll(() => observeResponses((route, status, body) => seen.push(`${route.path} ${status} ${check(route, status, body) ?? 'ok'}`)));
  afterAll(() => observeResponses(undefined));
  beforeEach(() => seen.splice(0));

  const post = (name: unknown, key = 'k') => request(app()).post('/v1/things').set('x-api-key', key).send({ name });

  it('passes a success that matches the schema and an error the route documents', async () => {
    await post('box');
    await post('missing');
    await post('');
    await post('box', 'wrong');
    await request(app()).get('/v1/raw');
    expect(seen).toEqual(['/v1/things 200 ok', '/v1/things 404 ok', '/v1/things 400 ok', '/v1/things 401 ok', '/v1/raw 200 ok']);
  });

  it('names what does not match: a missing or malformed member, an undocumented error code', async () => {
    await post('no-id');
    await post('bad-id');
    await post('forbidden');
    expect(seen).toEqual([
      "/v1/things 200 success does not match the declared response: body/data must have required property 'id'",
      '/v1/things 200 success does not match the declared response: body/data/id must match format "uuid"',
      "/v1/things 403 error FORBIDDEN is not among the route's documented errors",
    ]);
  });

  it('binding refuses guards other than those the contract names', () => {
    expect(() => bindRoute(contract, { guards: [], handler: () => ({ id: ID, name: 'x' }) })).toThrow("POST /v1/things: guards [] are not the contract's [apiKey]");
  });
});
