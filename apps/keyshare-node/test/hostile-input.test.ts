import type { LocalOidcIssuer } from '@svc/auth/testing';
import { IdTokenSession } from '@svc/keyshare-client';
import { startTestNodes, type TestNodes } from '../src/testing.js';
import { startLogin } from './support/fixtures.js';

/* The key share node repros of issue 14, pinned: a lying Content-Encoding answered 500 before. */

describe('hostile input answers 4xx in the envelope (issue 14)', () => {
  let login: Awaited<ReturnType<typeof startLogin>> & { issuer: LocalOidcIssuer };
  let nodes: TestNodes;
  beforeAll(async () => {
    login = await startLogin();
    nodes = await startTestNodes({ names: ['node-1'], verifyIdToken: login.verifyIdToken });
  }, 120_000);
  afterAll(async () => {
    await nodes.stop();
    await login.issuer.close();
  });

  it.each([
    ['gzip', '/commit/v1/id-token'],
    ['deflate', '/keyshare/v1/check'],
    ['br', '/keyshare/v1/register'],
    ['gzip', '/keyshare/v1/keyshare'],
  ])('Content-Encoding: %s over a body that is not compressed on %s -> 400', async (encoding, path) => {
    const session = IdTokenSession.create(await login.issuer.issue({ sub: `hostile-${Date.now()}` }));
    const body = '{"curve_type":"ed25519","public_key":"00"}';
    const res = await fetch(`${nodes.node('node-1').endpoint}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding, ...session.signedHeaders('node-1', 'POST', path, body) },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, code: 'INVALID_REQUEST', msg: expect.any(String) });
  });
});
