import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { fromHex, keygenSeedEd25519, sssNodeXCoordinate, toHex } from '@svc/crypto';
import {
  canonicalRequest,
  combineWalletSeed,
  expectWalletKey,
  IdTokenSession,
  KeyshareNodeClient,
  KeyshareNodeError,
  sha256Hex,
  SIGNED_REQUEST_HEADERS,
  splitWalletSeed,
  walletPublicKeyOfSeed,
} from '../src/index.js';

describe('signed requests', () => {
  it('signs the canonical request with the session key, binding node, token and body', () => {
    // A JWT-shaped token in canonical base64url (of "header", "payload", "signature").
    const token = 'aGVhZGVy.cGF5bG9hZA.c2lnbmF0dXJl';
    const session = IdTokenSession.create(token);
    expect(session.idTokenHash).toBe(sha256Hex(token));
    const body = JSON.stringify({ curve_type: 'ed25519' });
    const headers = session.signedHeaders('node-1', 'post', '/keyshare/v1/keyshare', body, 1_700_000_000_000);
    expect(headers.authorization).toBe(`Bearer ${token}`);
    expect(headers[SIGNED_REQUEST_HEADERS.timestamp]).toBe('1700000000000');
    expect(headers[SIGNED_REQUEST_HEADERS.nonce]).toMatch(/^[0-9a-f]{32}$/);
    const fields = {
      nodeName: 'node-1',
      method: 'POST',
      path: '/keyshare/v1/keyshare',
      timestamp: '1700000000000',
      nonce: headers[SIGNED_REQUEST_HEADERS.nonce]!,
      idTokenHash: session.idTokenHash,
      bodySha256: sha256Hex(body),
    };
    expect(canonicalRequest(fields)).toBe(
      ['svc-keyshare-request-v1', 'node-1', 'POST', '/keyshare/v1/keyshare', '1700000000000', fields.nonce, fields.idTokenHash, fields.bodySha256].join('\n'),
    );
    const verify = (f: typeof fields) =>
      ed25519.verify(fromHex(headers[SIGNED_REQUEST_HEADERS.signature], 'sig'), utf8ToBytes(canonicalRequest(f)), fromHex(session.sessionPublicKey, 'pk'));
    expect(verify(fields)).toBe(true);
    expect(verify({ ...fields, nodeName: 'node-2' })).toBe(false);
    expect(verify({ ...fields, bodySha256: sha256Hex('{}') })).toBe(false);
    // Two sessions for one token have different keys; nonces never repeat.
    expect(IdTokenSession.create(token).sessionPublicKey).not.toBe(IdTokenSession.create(token).sessionPublicKey);
    expect(session.signedHeaders('n', 'POST', '/p', '')[SIGNED_REQUEST_HEADERS.nonce]).not.toBe(fields.nonce);
  });

  it('has no node: imports, so it runs in browsers', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir)) {
      expect({ file, nodeImport: /from '(node:|fs|crypto|http)/.test(readFileSync(new URL(file, dir), 'utf8')) }).toEqual({ file, nodeImport: false });
    }
  });
});

describe('seed parts', () => {
  it('splits a seed 2-of-2 and only the right user part passes the expected-key check', async () => {
    const { seed, publicKey } = keygenSeedEd25519();
    const { serverPart, userPart } = await splitWalletSeed(seed);
    expect(toHex(walletPublicKeyOfSeed('ed25519', seed))).toBe(toHex(publicKey));
    expect(toHex(await combineWalletSeed('ed25519', toHex(publicKey), { serverPart, userPart }))).toBe(toHex(seed));
    const verify = expectWalletKey('ed25519', toHex(publicKey), serverPart);
    expect(await verify(userPart)).toBe(true);
    const wrong = Uint8Array.from(userPart);
    wrong[0] = wrong[0]! ^ 1;
    expect(await verify(wrong)).toBe(false);
    expect(await verify(new Uint8Array(5))).toBe(false);
    await expect(combineWalletSeed('ed25519', toHex(publicKey), { serverPart, userPart: wrong })).rejects.toMatchObject({ name: 'CryptoError' });
  });

  it('derives secp256k1 wallet keys from the seed as the private key', async () => {
    const seed = new Uint8Array(32).fill(1);
    expect(walletPublicKeyOfSeed('secp256k1', seed)).toHaveLength(33);
    const { serverPart, userPart } = await splitWalletSeed(seed);
    const pk = toHex(walletPublicKeyOfSeed('secp256k1', seed));
    expect(await expectWalletKey('secp256k1', pk, serverPart)(userPart)).toBe(true);
    expect(sssNodeXCoordinate('node-1')).toBeGreaterThan(0);
  });
});

describe('node client errors', () => {
  it('reports unreachable nodes, timeouts and non-envelope answers with the node name', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/keyshare/v1/info') return void setTimeout(() => res.end('{}'), 500);
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const client = new KeyshareNodeClient({ name: 'node-x', endpoint: `http://127.0.0.1:${port}/` }, { timeoutMs: 200 });
      await expect(client.info()).rejects.toMatchObject({ node: 'node-x', status: 0, code: 'NODE_UNREACHABLE', message: 'node-x: NODE_UNREACHABLE: no answer within 200 ms' });
      await expect(client.check({ curve: 'ed25519', publicKey: '00' })).rejects.toMatchObject({ status: 502, code: 'INVALID_RESPONSE' });
      const closed = new KeyshareNodeClient({ name: 'gone', endpoint: 'http://127.0.0.1:1' });
      const error = await closed.info().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyshareNodeError);
      expect(error).toMatchObject({ code: 'NODE_UNREACHABLE', status: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
