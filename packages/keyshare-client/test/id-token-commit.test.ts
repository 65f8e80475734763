import fc from 'fast-check';
import {
  canonicalIdToken,
  ID_TOKEN_COMMIT_DOMAIN,
  IdTokenSession,
  idTokenCommitKey,
  isCanonicalBase64url,
  NonCanonicalIdTokenError,
  sha256Hex,
} from '../src/index.js';

/*
 * The commit key of an ID token (src/id-token-commit.ts): the same for every spelling of one
 * token that a verifier accepts, different for any two tokens, and a non-canonical spelling
 * refused outright. These are the properties the key share node's refusal of a re-spelled token
 * rests on (apps/keyshare-node/test/id-token-respelling.test.ts drives it end to end).
 */

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Every other spelling of `segment` that a lenient decoder (Node's, atob) reads as the same bytes. */
function lastCharVariants(segment: string): string[] {
  const bytes = Buffer.from(segment, 'base64url');
  return [...ALPHABET]
    .map((c) => segment.slice(0, -1) + c)
    .filter((s) => s !== segment && Buffer.from(s, 'base64url').equals(bytes));
}

const bytesArb = fc.uint8Array({ minLength: 1, maxLength: 300 });
const jwtArb = fc.tuple(bytesArb, bytesArb, bytesArb).map(([h, p, s]) => ({ h: b64(h), p: b64(p), s: b64(s) }));

describe('isCanonicalBase64url', () => {
  it('accepts what an encoder writes, for every length', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => isCanonicalBase64url(b64(bytes))));
  });

  it('refuses every other spelling of the same bytes (non-zero unused bits)', () => {
    fc.assert(
      fc.property(bytesArb.filter((b) => b.length % 3 !== 0), (bytes) => {
        const variants = lastCharVariants(b64(bytes));
        // 1 byte left over: 4 unused bits, 15 other spellings; 2 bytes: 2 bits, 3 others.
        expect(variants).toHaveLength(bytes.length % 3 === 1 ? 15 : 3);
        return variants.every((v) => !isCanonicalBase64url(v));
      }),
    );
  });

  it('refuses padding, the standard alphabet, whitespace and impossible lengths', () => {
    for (const bad of ['QQ==', 'QUI=', 'a+b/', 'QU I', 'QUJDR', 'A', 'QUJD\n']) expect({ bad, ok: isCanonicalBase64url(bad) }).toEqual({ bad, ok: false });
    expect(isCanonicalBase64url('QUJD')).toBe(true);
  });
});

describe('idTokenCommitKey of a JWT', () => {
  it('is SHA-256 of the domain and the signing input `header.payload`: the signature is not part of it', () => {
    fc.assert(
      fc.property(jwtArb, bytesArb, ({ h, p, s }, other) => {
        const key = idTokenCommitKey(`${h}.${p}.${s}`);
        expect(key).toBe(sha256Hex(`${ID_TOKEN_COMMIT_DOMAIN}\njwt\n${h}.${p}`));
        // Another valid signature over the same content (ECDSA's (r, n - s), say) has the same key.
        return idTokenCommitKey(`${h}.${p}.${b64(other)}`) === key;
      }),
    );
  });

  it('differs whenever the signed content differs (two tokens of one person differ in iat, exp, nonce)', () => {
    fc.assert(
      fc.property(jwtArb, jwtArb, (a, b) => {
        fc.pre(a.h !== b.h || a.p !== b.p);
        return idTokenCommitKey(`${a.h}.${a.p}.${a.s}`) !== idTokenCommitKey(`${b.h}.${b.p}.${b.s}`);
      }),
    );
    const header = b64(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const token = (iat: number) => `${header}.${b64(JSON.stringify({ sub: 'u', iat }))}.${b64('sig')}`;
    expect(idTokenCommitKey(token(1))).not.toBe(idTokenCommitKey(token(2)));
  });

  it('refuses a re-spelled segment (the last character of the signature, or of header or payload)', () => {
    fc.assert(
      fc.property(jwtArb, fc.integer({ min: 0, max: 2 }), ({ h, p, s }, which) => {
        const parts = [h, p, s];
        fc.pre(parts[which]!.length % 4 !== 0);
        for (const variant of lastCharVariants(parts[which]!)) {
          const respelled = parts.map((x, i) => (i === which ? variant : x)).join('.');
          expect(() => idTokenCommitKey(respelled)).toThrow(NonCanonicalIdTokenError);
        }
      }),
    );
  });

  it('refuses what is not three non-empty base64url segments', () => {
    for (const bad of ['a.b', 'QQ.QQ.', 'QQ..QQ', 'QQ.QQ.QQ.QQ', 'QQ==.QQ.QQ', 'QQ.QQ.QQ==', ':QQ.QQ.QQ', 'QQ.QQ.Q Q']) {
      expect({ bad, thrown: (() => { try { idTokenCommitKey(bad); return null; } catch (e) { return (e as Error).name; } })() }).toEqual({ bad, thrown: 'NonCanonicalIdTokenError' });
    }
  });
});

describe('idTokenCommitKey of prefixed tokens', () => {
  const hash = 'ab'.repeat(32);
  const telegram = (json: string) => `telegram:${b64(json)}`;
  const fieldsArb = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== 'hash'),
    fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    { minKeys: 1, maxKeys: 8 },
  );

  it('Telegram: key order, whitespace and a number sent as its string all give one key', () => {
    fc.assert(
      fc.property(fieldsArb, fc.integer({ min: 0, max: 4 }), (fields, indent) => {
        const data = { ...fields, hash };
        const key = idTokenCommitKey(telegram(JSON.stringify(data)));
        const reversed = Object.fromEntries(Object.entries(data).reverse());
        const asStrings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
        return (
          idTokenCommitKey(telegram(JSON.stringify(reversed, null, indent))) === key &&
          idTokenCommitKey(telegram(` ${JSON.stringify(asStrings)}\n`)) === key
        );
      }),
    );
  });

  it("Telegram: the canonical form is Telegram's data-check-string and the hash; another field or hash is another key", () => {
    const data = { id: 42, first_name: 'Ann', auth_date: 1_700_000_000, hash };
    expect(canonicalIdToken(telegram(JSON.stringify(data)))).toBe(`${ID_TOKEN_COMMIT_DOMAIN}\ntelegram\n${hash}\nauth_date=1700000000\nfirst_name=Ann\nid=42`);
    const key = idTokenCommitKey(telegram(JSON.stringify(data)));
    expect(idTokenCommitKey(telegram(JSON.stringify({ ...data, auth_date: 1_700_000_001 })))).not.toBe(key);
    expect(idTokenCommitKey(telegram(JSON.stringify({ ...data, hash: 'cd'.repeat(32) })))).not.toBe(key);
  });

  it('Telegram: refuses non-canonical base64url, bad UTF-8, a BOM, nested values and a missing or uppercase hash', () => {
    const good = JSON.stringify({ id: 1, auth_date: 2, hash, name: '???' });
    const encoded = b64(good);
    const standard = Buffer.from(good).toString('base64');
    // Chosen so that the encoding has unused bits, and standard base64 pads and uses '/'.
    expect({ rest: encoded.length % 4, standard: /[/=]/.test(standard) }).toEqual({ rest: 2, standard: true });
    const bad = [
      ...lastCharVariants(encoded).map((v) => `telegram:${v}`),
      `telegram:${encoded}==`,
      `telegram:${standard}`,
      `telegram:${b64(Buffer.from([0xff, 0xfe]))}`,
      `telegram:${b64(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good)]))}`,
      telegram(JSON.stringify({ id: { n: 1 }, hash })),
      telegram(JSON.stringify({ id: 1 })),
      telegram(JSON.stringify({ id: 1, hash: hash.toUpperCase() })),
      telegram('[1]'),
      'telegram:',
    ];
    for (const token of bad) expect({ token, refused: (() => { try { idTokenCommitKey(token); return false; } catch (e) { return e instanceof NonCanonicalIdTokenError; } })() }).toEqual({ token, refused: true });
  });

  it('X and Discord access tokens: the token itself, per provider; unknown prefixes are refused', () => {
    expect(canonicalIdToken('x:abcdefgh1')).toBe(`${ID_TOKEN_COMMIT_DOMAIN}\naccess-token\nx:abcdefgh1`);
    expect(idTokenCommitKey('x:abcdefgh1')).not.toBe(idTokenCommitKey('discord:abcdefgh1'));
    expect(idTokenCommitKey('x:abcdefgh1')).not.toBe(idTokenCommitKey('x:abcdefgh2'));
    expect(() => idTokenCommitKey('github:abcdefgh1')).toThrow(NonCanonicalIdTokenError);
    expect(() => idTokenCommitKey('')).toThrow(NonCanonicalIdTokenError);
  });

  it('is never SHA-256 of a raw token (the domain line keeps old and new commit keys apart)', () => {
    fc.assert(fc.property(jwtArb, ({ h, p, s }) => canonicalIdToken(`${h}.${p}.${s}`).startsWith(`${ID_TOKEN_COMMIT_DOMAIN}\n`) && idTokenCommitKey(`${h}.${p}.${s}`) !== sha256Hex(`${h}.${p}.${s}`)));
  });
});

describe('IdTokenSession', () => {
  it('commits the commit key, signs over the exact token, and refuses a token no node would accept', () => {
    const token = `${b64('{"alg":"ES256"}')}.${b64('{"sub":"u"}')}.${b64(new Uint8Array(64).fill(9))}`;
    const session = IdTokenSession.create(token);
    expect(session.commitKey).toBe(idTokenCommitKey(token));
    expect(session.idTokenHash).toBe(sha256Hex(token));
    const [h, p, s] = token.split('.') as [string, string, string];
    const respelled = `${h}.${p}.${lastCharVariants(s)[0]!}`;
    expect(() => IdTokenSession.create(respelled)).toThrow(TypeError);
    expect(() => IdTokenSession.create('not a token')).toThrow(/not usable at key share nodes/);
  });
});
