import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ServiceJwt, SERVICE_ISSUER, TOKEN_AUDIENCE } from '../src/index.js';

const secret = 'a-test-secret-that-is-long-enough-123456';
const service = new ServiceJwt({ secret, expiresIn: '1h' });

describe('ServiceJwt', () => {
  it('round-trips a token of each kind', () => {
    for (const kind of ['user', 'admin', 'customer'] as const) {
      const { token } = service.sign(kind, 'subject-1', { email: 'a@example.com' });
      const result = service.verify(kind, token);
      expect(result).toMatchObject({ ok: true, expired: false, claims: { sub: 'subject-1', aud: TOKEN_AUDIENCE[kind] } });
    }
  });

  it('tells a token of another kind apart from an invalid one', () => {
    const { token } = service.sign('admin', 'admin-1');
    expect(service.verify('user', token)).toEqual({ ok: false, reason: 'wrong_audience' });
    expect(service.verify('customer', token)).toEqual({ ok: false, reason: 'wrong_audience' });
  });

  it('refuses alg=none, a foreign secret, and an RS256 token', () => {
    const claims = { sub: 'u', jti: 'j', aud: TOKEN_AUDIENCE.user, iss: SERVICE_ISSUER };
    const none = jwt.sign(claims, '', { algorithm: 'none', expiresIn: '1h' });
    const foreign = jwt.sign(claims, 'another-secret-that-is-long-enough-000', { algorithm: 'HS256', expiresIn: '1h' });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = jwt.sign(claims, privateKey, { algorithm: 'RS256', expiresIn: '1h' });
    for (const token of [none, foreign, rs, 'not.a.jwt', '']) {
      expect(service.verify('user', token)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses an HS256 token signed with the public key of an RSA pair (key confusion)', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const confused = jwt.sign({ sub: 'u', jti: 'j' }, pem, { algorithm: 'HS256', audience: TOKEN_AUDIENCE.user, issuer: SERVICE_ISSUER });
    expect(service.verify('user', confused)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('accepts an expired token only inside the grace window', () => {
    const expiredAt = Math.floor(Date.now() / 1000) - 100;
    const token = jwt.sign(
      { sub: 'u', jti: 'j', exp: expiredAt },
      secret,
      { algorithm: 'HS256', audience: TOKEN_AUDIENCE.user, issuer: SERVICE_ISSUER },
    );
    expect(service.verify('user', token)).toEqual({ ok: false, reason: 'expired' });
    expect(service.verify('user', token, 50)).toEqual({ ok: false, reason: 'expired' });
    expect(service.verify('user', token, 3600)).toMatchObject({ ok: true, expired: true });
  });

  it('refuses a short secret at construction', () => {
    expect(() => new ServiceJwt({ secret: 'short', expiresIn: '1h' })).toThrow('JWT_SECRET must be at least 32 characters');
  });
});
