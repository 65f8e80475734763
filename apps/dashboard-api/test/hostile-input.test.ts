import request from 'supertest';
import { makeCustomer, startHarness, type Harness } from './harness.js';

/* The dashboard-api repros of issue 14, pinned: each answered 500 before. */

const AUTH = '/customer_dashboard/v1/customer/auth';

describe('hostile input answers 4xx in the envelope (issue 14)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);
  afterAll(() => h.stop());

  it('signup with customer_id as an array (no login needed) -> 400, no account', async () => {
    const { customer } = await makeCustomer(h);
    const before = await h.t.db.customerDashboardUser.count();
    const res = await request(h.app).post(`${AUTH}/signup`).send({ email: 'new@example.com', password: 'a long password 1', customer_id: [customer.id] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: 'customer_id must be a UUID' });
    expect(await h.t.db.customerDashboardUser.count()).toBe(before);
  });

  it.each(['gzip', 'deflate', 'br'])('signin with Content-Encoding: %s over a body that is not compressed -> 400', async (encoding) => {
    const res = await request(h.app)
      .post(`${AUTH}/signin`)
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .send('{"email":"a@example.com","password":"x"}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg: expect.any(String) });
  });
});
