import request from 'supertest';
import { makeCustomer, startHarness, type Harness } from './harness.js';

/* The admin-api repros of issue 14, pinned: each answered 500 before. */

const P = '/svc_admin/v1';
const UUID = '00000000-0000-4000-8000-000000000000';

describe('hostile input answers 4xx in the envelope (issue 14)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);
  afterAll(() => h.stop());

  const post = (path: string, body: unknown) => request(h.app).post(`${P}${path}`).set('authorization', `Bearer ${h.adminToken}`).send(body as object);

  it.each([
    ['/customer/get_api_key_list', (c: string) => ({ customer_id: [c] }), 'customer_id must be a UUID'],
    ['/customer/revoke_api_key', (c: string) => ({ customer_id: c, api_key_id: [UUID] }), 'api_key_id must be a UUID'],
    ['/ks_node/activate_ks_node', () => ({ node_id: [UUID] }), 'node_id must be a UUID'],
    ['/customer/delete_customer', (c: string) => ({ customer_id: { id: c } }), 'customer_id must be a UUID'],
  ])('%s with an array or object id -> 400', async (path, body, msg) => {
    const customer = await makeCustomer(h);
    const res = await post(path, body(customer.customer_id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

  it.each(['gzip', 'deflate', 'br'])('login with Content-Encoding: %s over a body that is not compressed -> 400', async (encoding) => {
    const res = await request(h.app)
      .post(`${P}/user/login`)
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .send('{"email":"root@example.com","password":"x"}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: expect.any(String) });
  });

  it('GET customer/get_customer/%zz without a token -> 400, not a URIError 500', async () => {
    const res = await request(h.app).get(`${P}/customer/get_customer/%zz`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'Malformed percent-encoding in the URL path' });
  });
});
