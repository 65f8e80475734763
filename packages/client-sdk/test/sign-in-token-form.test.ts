// signIn refuses an ID token that key share nodes would refuse (not one canonical spelling,
// packages/keyshare-client/src/id-token-commit.ts) with the SDK's one error type, before anything
// is committed (with pinned nodes, before any request).
import { MemoryShareStorage, SvcError, SvcWallet, type FetchLike } from '../src/index.js';

const b64url = (text: string) => Buffer.from(text).toString('base64url');
const jwt = `${b64url('{"alg":"RS256"}')}.${b64url('{"email":"a@example.com","iat":1}')}.${b64url('signature')}`;

describe('signIn with an ID token not in canonical form', () => {
  it.each([
    ['a JWT whose segment is padded', `${jwt}=`],
    ['Telegram login data in padded base64url', `telegram:${b64url('{"id":42,"auth_date":1,"hash":"' + 'ab'.repeat(32) + '"}')}==`],
    ['an unknown prefix', 'github:token'],
  ])('%s is SvcError INVALID_ARGUMENT, with no request sent', async (_name, token) => {
    const requests: string[] = [];
    const fetch: FetchLike = (url) => {
      requests.push(String(url));
      return Promise.reject(new Error('no request expected'));
    };
    const wallet = new SvcWallet({
      gatewayUrl: 'http://127.0.0.1:9',
      apiKey: 'key',
      storage: new MemoryShareStorage(),
      presignaturePoolSize: 0,
      keyshareNodes: [{ name: 'node-1', endpoint: 'http://127.0.0.1:9' }],
      keyshareThreshold: 1,
      fetch,
    });
    const error = await wallet.signIn(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', status: 0 });
    expect(requests).toEqual([]);
  });
});
