import { field, keyshareNode, requestBodySchemaOf, tssApi, type BodyOf, type ResponseOf, type RouteContract } from '../src/index.js';

/** Compile-time: each type is assignable to the other (the test fails to typecheck when they differ). */
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typeIs = <T extends true>(): T => true as T;

const all: [string, RouteContract][] = [...Object.entries(tssApi), ...Object.entries(keyshareNode)];

describe('route contracts', () => {
  it('one contract per method and path, except the one-call forms (ECDSA, Ed25519) that /tss/v1/sign answers', () => {
    const seen = all.map(([, c]) => `${c.method} ${c.path}`);
    const duplicates = seen.filter((key, i) => seen.indexOf(key) !== i);
    expect(duplicates).toEqual(['post /tss/v1/sign', 'post /tss/v1/sign']);
    expect(tssApi.signCompletion.path).toBe(tssApi.ecdsaSign.path);
    expect(tssApi.signCompletion.path).toBe(tssApi.ed25519Sign.path);
  });

  it('every route that answers in the envelope declares its errors, and its credentials are named', () => {
    for (const [name, c] of all) {
      if (c.response) expect([name, c.errors?.length]).toEqual([name, expect.any(Number)]);
      for (const guard of c.auth ?? []) expect(guard).toMatch(/^[a-z][A-Za-z]+$/);
    }
  });

  it('the sign completion body is one of the bodies of the routes it forwards to', () => {
    expect(tssApi.signCompletion.bodySchema.oneOf).toEqual([
      requestBodySchemaOf(tssApi.ecdsaSign),
      requestBodySchemaOf(tssApi.ed25519Sign),
      requestBodySchemaOf(tssApi.ecdsaSignStep2),
      requestBodySchemaOf(tssApi.ed25519Round2),
    ]);
  });

  it('request bodies are documented from the fields, nested paths included', () => {
    expect(requestBodySchemaOf(tssApi.userReshare)).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['public_key', 'reshared_key_shares'],
      properties: {
        reshared_key_shares: { type: 'array', minItems: 1, maxItems: 255, items: { type: 'object', required: ['name', 'endpoint'] } },
      },
    });
    expect(requestBodySchemaOf(tssApi.userSignin)).toBeUndefined();
  });

  it('response and request types are derived from the declarations', () => {
    typeIs<Equal<ResponseOf<typeof tssApi.userSignout>, { message: 'Signed out' }>>();
    typeIs<Equal<ResponseOf<typeof tssApi.userReshare>, null>>();
    typeIs<Equal<ResponseOf<typeof tssApi.userSignin>['user']['wallets'][number]['curve'], 'ed25519' | 'secp256k1'>>();
    typeIs<Equal<ResponseOf<typeof tssApi.ecdsaSignStep1>['sign_output'], { r: number[]; s: number[]; recovery_id: number } | null>>();
    typeIs<Equal<ResponseOf<typeof tssApi.ecdsaPresign>['presignature_ids'], string[] | undefined>>();
    typeIs<Equal<BodyOf<typeof tssApi.sessionAbort>, { session_id: string }>>();
    typeIs<Equal<BodyOf<typeof tssApi.userCheck>['auth_type'], 'EMAIL' | 'GOOGLE' | 'APPLE' | 'X' | 'DISCORD' | 'TELEGRAM' | 'OIDC' | undefined>>();
    typeIs<Equal<keyof BodyOf<typeof tssApi.ecdsaSignStep2>, 'session_id' | 'msg' | 'msgs_1'>>();
    // A nested field's declared type agrees with the fields under it (defineContract refuses it otherwise).
    typeIs<Equal<BodyOf<typeof tssApi.ecdsaSignStep1>['msgs_1'], { presignature_id: string; signature_share?: string }>>();
    typeIs<Equal<BodyOf<typeof tssApi.userReshare>['reshared_key_shares'], { name: string; endpoint: string }[]>>();
  });
});

describe('field descriptors', () => {
  it('are data: presence, schema, type check and steps, nothing bound to a server', () => {
    const id = field.uuid().nullable();
    expect(id.presence).toBe('nullable');
    expect(id.schema).toEqual({ type: ['string', 'null'], format: 'uuid' });
    expect(id.isType('x', 'body')).toBe(true);
    expect(id.isType(['x'], 'body')).toBe(false);
    expect(id.steps.map((s) => s.kind)).toEqual(['check', 'lowercase']);
  });

  it('an integer is a JSON number in a body and digits elsewhere', () => {
    const n = field.int({ min: 1, max: 9 });
    expect([n.isType(5, 'body'), n.isType('5', 'body'), n.isType('5', 'query'), n.isType(5.5, 'body')]).toEqual([true, false, true, false]);
  });

  it('a check sees the whole body (the key share wallet fields check the key on its curve)', () => {
    const check = keyshareNode.keyshareCheck.body.public_key.steps.at(-1);
    const ed25519Base = '5866666666666666666666666666666666666666666666666666666666666666';
    expect(check?.kind === 'check' && check.test(ed25519Base, { curve_type: 'ed25519' })).toBe(true);
    expect(check?.kind === 'check' && check.test(ed25519Base, { curve_type: 'secp256k1' })).toBe(false);
  });
});
