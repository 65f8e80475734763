import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { createServiceApp, defineRoute, field, listen } from '../src/index.js';
import { captureLogger } from './support/capture-logger.js';

function build() {
  const { logger, lines } = captureLogger();
  const routes = [
    defineRoute({
      method: 'post',
      path: '/v1/check',
      summary: 'check',
      body: { email: field.string({ max: 320 }), auth_type: field.oneOf(['EMAIL', 'GOOGLE']).optional(), n: field.int({ min: 0, max: 9 }).optional() },
      handler: (req) => ({ email: req.body.email, auth_type: req.body.auth_type ?? null }),
    }),
    defineRoute({ method: 'get', path: '/v1/items/:item_id', summary: 'item', params: { item_id: field.uuid() }, handler: (req) => req.params.item_id }),
    defineRoute({
      method: 'post',
      path: '/v1/boom',
      summary: 'fails with personal data in the error',
      handler: () => {
        throw new Error('Invalid `prisma.user.findUnique()` invocation:\n{ where: { email: "ann@example.com" } }\nNo row for ann@example.com, user 0b7c6a1e-3f43-4d4c-9d1e-7b7f0a1c2d3e');
      },
    }),
  ];
  return { app: createServiceApp({ name: 'transport', routes, logger }).app, lines };
}

const envelope = (code: string) => ({ success: false, code, msg: expect.any(String) });

describe('4xx raised by body parsing and routing keep their status (issue 14, item 2)', () => {
  it.each(['gzip', 'deflate', 'br'])('Content-Encoding: %s with a body that is not compressed -> 400 INVALID_REQUEST', async (encoding) => {
    const res = await request(build().app)
      .post('/v1/check')
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .send('{"email":"a@b.c"}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('INVALID_REQUEST'));
  });

  it('a real gzip body is read', async () => {
    // Over a real socket: superagent would serialise a Buffer under a JSON content type.
    const server = build().app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync('{"email":"a@b.c"}'),
      });
      expect(await res.json()).toEqual({ success: true, data: { email: 'a@b.c', auth_type: null } });
    } finally {
      server.close();
    }
  });

  it('an unknown Content-Encoding -> 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(build().app).post('/v1/check').set('content-type', 'application/json').set('content-encoding', 'zstd').send('{"email":"a@b.c"}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('a body that is not JSON on a JSON route -> 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await request(build().app).post('/v1/check').set('content-type', 'text/plain').send('email=a@b.c');
    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('an unsupported charset -> 415', async () => {
    const res = await request(build().app).post('/v1/check').set('content-type', 'application/json; charset=koi8-r').send('{"email":"a@b.c"}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('headers over Node\'s limit, refused before Express -> 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const running = await listen(build().app, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${running.port}/v1/items/${'a'.repeat(20_000)}`);
      expect(res.status).toBe(431);
      expect(await res.json()).toEqual(envelope('HEADERS_TOO_LARGE'));
    } finally {
      await running.close(0);
    }
  });

  it('a path parameter that is not valid percent-encoding (%zz) -> 400 INVALID_REQUEST', async () => {
    const res = await request(build().app).get('/v1/items/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('INVALID_REQUEST'));
  });
});

describe('the field vocabulary refuses the wrong JSON type before any other check (issue 14, item 1)', () => {
  it.each([
    [{ email: 'a@b.c', auth_type: ['EMAIL'] }, 'auth_type must be one of EMAIL, GOOGLE'],
    [{ email: ['a@b.c'] }, 'email must be a string'],
    [{ email: { $ne: 1 } }, 'email must be a string'],
    [{ email: 'a@b.c', n: '5' }, 'n must be an integer between 0 and 9'],
    [{ email: 'a@b.c', n: 1.5 }, 'n must be an integer between 0 and 9'],
    [{ email: null }, 'email must be a string'],
    // Found by the tss-api campaign: PostgreSQL text refuses NUL, UTF-8 has no unpaired surrogate.
    [{ email: 'a\u0000@b.c' }, 'email must be valid text (no NUL, no unpaired surrogate)'],
    [{ email: '\ud800' }, 'email must be valid text (no NUL, no unpaired surrogate)'],
    [{ email: 'a@b.c', ['__proto__']: { x: 1 } }, 'Unknown field: __proto__'],
    // express-validator's checkExact took these for known fields, or threw (a 500) on null.
    [{ email: 'a@b.c', constructor: null }, 'Unknown field: constructor'],
    [{ email: 'a@b.c', constructor: 1 }, 'Unknown field: constructor'],
    [{ email: 'a@b.c', toString: null }, 'Unknown field: toString'],
  ])('%j -> 400 %s', async (body, msg) => {
    const res = await request(build().app).post('/v1/check').set('content-type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'INVALID_REQUEST', msg });
  });

});

describe('the log of an unexpected error (issue 14, item 4)', () => {
  it('carries the request id and the error, not emails or user ids', async () => {
    const { app, lines } = build();
    const res = await request(app).post('/v1/boom');
    expect(res.status).toBe(500);
    const entry = lines.find((l) => l.message === 'request failed')!;
    expect(entry.request_id).toBe(res.headers['x-request-id']);
    const text = JSON.stringify(entry);
    expect(text).not.toContain('ann@example.com');
    expect(text).not.toContain('0b7c6a1e-3f43-4d4c-9d1e-7b7f0a1c2d3e');
    expect(entry.error).toMatchObject({ name: 'Error', message: 'No row for <email>, user <uuid>' });
    expect(String((entry.error as { stack: string }).stack)).toMatch(/^\s+at /);
  });
});
