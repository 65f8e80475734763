import { startTestDatabase, type TestDatabase } from '../src/testing.js';
let t: TestDatabase;
beforeAll(async () => { t = await startTestDatabase(); });
afterAll(() => t.stop());
test('smoke', async () => {
  const c = await t.db.customer.create({ data: { label: 'a', email: 'a@x' } });
  expect(c.id).toHaveLength(36);
});
