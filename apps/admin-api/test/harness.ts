import { ServiceJwt } from '@svc/auth';
import { startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { createLogger, type JsonSchema } from '@svc/http';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { adminsRepo } from '../src/modules/admins/repo.js';
import { createAdminAccount } from '../src/modules/admins/service.js';

export const JWT_SECRET = 'test-secret-for-admin-api-0123456789abcdef';
export const ADMIN_PASSWORD = 'correct horse battery';

export interface Harness {
  t: TestDatabase;
  app: Express;
  openapi: JsonSchema;
  adminId: string;
  /** Same secret as the app: tokens of every kind, as tss-api and dashboard-api would issue them. */
  jwt: ServiceJwt;
  adminToken: string;
  stop(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const t = await startTestDatabase();
  const config = loadConfig({ JWT_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: t.url });
  const { app, openapi } = createApp({ config, db: t.db, logger: createLogger('admin-api-test', 'silent') });
  await createAdminAccount(adminsRepo(t.db), 'root@example.com', ADMIN_PASSWORD);
  const login = await request(app).post('/svc_admin/v1/user/login').send({ email: 'root@example.com', password: ADMIN_PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { t, app, openapi, adminId: login.body.data.admin.admin_id, jwt: new ServiceJwt({ secret: JWT_SECRET, expiresIn: '1h' }), adminToken: login.body.data.token, stop: () => t.stop() };
}

export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** POSTs create_customer as multipart. */
export function createCustomerRequest(h: Harness, fields: Record<string, string>, logo?: { buffer: Buffer; filename: string; contentType: string }) {
  let req = request(h.app).post('/svc_admin/v1/customer/create_customer').set('authorization', `Bearer ${h.adminToken}`);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  if (logo) req = req.attach('logo', logo.buffer, { filename: logo.filename, contentType: logo.contentType });
  return req;
}

let seq = 0;
/** Creates a customer through the API and returns the response data. */
export async function makeCustomer(h: Harness, overrides: Record<string, string> = {}) {
  seq += 1;
  const res = await createCustomerRequest(h, {
    email: `customer${seq}-${Date.now()}@example.com`,
    password: 'customer password 1',
    label: `Customer ${seq}`,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`create_customer failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
