import { apiKeyRepo, dashboardUserRepo, hashPassword } from '@svc/accounts';
import { ServiceJwt } from '@svc/auth';
import { startTestDatabase, type TestDatabase } from '@svc/db/testing';
import { createLogger, type JsonSchema } from '@svc/http';
import { createMailer, type DevMailServer, type Mailer } from '@svc/mailer';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { codeInMail } from '../src/modules/auth/verification-mail.js';

export const JWT_SECRET = 'test-secret-for-dashboard-api-0123456789ab';

export interface Harness {
  t: TestDatabase;
  app: Express;
  openapi: JsonSchema;
  mailer: Mailer;
  inbox: DevMailServer;
  jwt: ServiceJwt;
  stop(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const t = await startTestDatabase();
  const config = loadConfig({ JWT_SECRET, LOG_LEVEL: 'silent', DATABASE_URL: t.url });
  // The real in-process SMTP server: nodemailer speaks SMTP to it, as to a real relay.
  const mailer = await createMailer({ from: 'dashboard@svc.test' });
  const { app, openapi } = createApp({ config, db: t.db, mailer, logger: createLogger('dashboard-test', 'silent') });
  return {
    t,
    app,
    openapi,
    mailer,
    inbox: mailer.devServer!,
    jwt: new ServiceJwt({ secret: JWT_SECRET, expiresIn: '1h' }),
    stop: async () => {
      await mailer.close();
      await t.stop();
    },
  };
}

let seq = 0;
export function uniqueEmail(tag: string): string {
  seq += 1;
  return `${tag}-${seq}-${Date.now()}@example.com`;
}

/** A customer as admin-api creates it: verified first user and one API key. */
export async function makeCustomer(h: Harness, password = 'customer password 1') {
  const email = uniqueEmail('owner');
  const customer = await h.t.db.customer.create({ data: { email, label: `Customer ${email}` } });
  const user = await dashboardUserRepo(h.t.db).create({ customerId: customer.id, email, passwordHash: await hashPassword(password), emailVerifiedAt: new Date() });
  const key = await apiKeyRepo(h.t.db).create(customer.id, 'default');
  return { customer, user, key, email, password };
}

export async function signIn(h: Harness, email: string, password: string): Promise<string> {
  const res = await request(h.app).post('/customer_dashboard/v1/customer/auth/signin').send({ email, password });
  if (res.status !== 200) throw new Error(`signin failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** The code in the `count`-th mail to an address. */
export async function mailedCode(h: Harness, email: string, count = 1): Promise<string> {
  const mail = await h.inbox.waitFor(email, count);
  const code = codeInMail(mail.text);
  if (!code) throw new Error(`no code in mail: ${mail.text}`);
  return code;
}
