import * as api from '../src/index.js';
import { CryptoError } from '../src/index.js';

// Every public function gets wrong types and lengths and must answer with a CryptoError
// (INVALID_INPUT or a more specific code), never a TypeError from inside noble.
const k = api.keygenSeedEd25519();
const c1 = api.signRound1ClientEd25519(k.keygen1);
const s0 = api.signRound1ServerEd25519(k.keygen2);
const msg = new Uint8Array([1, 2, 3]);
const round2 = { msg, keyPackage: k.keygen1, nonces: c1.nonces, commitment0: s0.commitment0, commitment1: c1.commitment1 };
const agg = { msg, publicKeyPackage: k.publicKeyPackage, commitment0: s0.commitment0, commitment1: c1.commitment1, signatureShare0: new Uint8Array(32), signatureShare1: new Uint8Array(32) };

const junk: unknown[] = [undefined, null, 1, 'abc', [], {}, new Uint8Array(0), new Uint8Array(31), new Uint8Array(33)];

const cases: [string, (bad: unknown) => unknown][] = [
  ['keygenSeedEd25519(seed)', (b) => api.keygenSeedEd25519(b as Uint8Array)],
  ['ed25519SeedScalar(seed)', (b) => api.ed25519SeedScalar(b as Uint8Array)],
  ['checkKeyPackageEd25519(kp)', (b) => api.checkKeyPackageEd25519(b as api.KeyPackage, k.publicKeyPackage)],
  ['checkKeyPackageEd25519(pkp)', (b) => api.checkKeyPackageEd25519(k.keygen2, b as api.PublicKeyPackage)],
  ['signRound1ClientEd25519', (b) => api.signRound1ClientEd25519(b as api.KeyPackage)],
  ['signRound1ServerEd25519', (b) => api.signRound1ServerEd25519(b as api.KeyPackage)],
  ['signRound1ClientEd25519(signingShare)', (b) => api.signRound1ClientEd25519({ ...k.keygen1, signingShare: b as Uint8Array })],
  ['signRound2ClientEd25519(args)', (b) => api.signRound2ClientEd25519(b as api.Ed25519Round2Args)],
  ['signRound2ClientEd25519(msg)', (b) => api.signRound2ClientEd25519({ ...round2, msg: b as Uint8Array, nonces: { ...c1.nonces } })],
  ['signRound2ClientEd25519(nonces)', (b) => api.signRound2ClientEd25519({ ...round2, nonces: b as api.SigningNonces })],
  ['signRound2ClientEd25519(commitment0)', (b) => api.signRound2ClientEd25519({ ...round2, commitment0: b as api.SigningCommitments })],
  ['signRound2ClientEd25519(commitment0.hiding)', (b) => api.signRound2ClientEd25519({ ...round2, commitment0: { ...s0.commitment0, hiding: b as Uint8Array } })],
  ['signRound2ServerEd25519(args)', (b) => api.signRound2ServerEd25519(b as api.Ed25519Round2Args)],
  ['aggregateEd25519(args)', (b) => api.aggregateEd25519(b as api.Ed25519AggregateArgs)],
  ['aggregateEd25519(signatureShare0)', (b) => api.aggregateEd25519({ ...agg, signatureShare0: b as Uint8Array })],
  ['aggregateEd25519(publicKeyPackage)', (b) => api.aggregateEd25519({ ...agg, publicKeyPackage: b as api.PublicKeyPackage })],
  ['aggregateEd25519(msg)', (b) => api.aggregateEd25519({ ...agg, msg: b as Uint8Array })],
  ['verifyEd25519(signature)', (b) => api.verifyEd25519(b as Uint8Array, msg, k.publicKey)],
  ['verifyEd25519(msg)', (b) => api.verifyEd25519(new Uint8Array(64), b as Uint8Array, k.publicKey)],
  ['verifyEd25519(publicKey)', (b) => api.verifyEd25519(new Uint8Array(64), msg, b as Uint8Array)],
  ['dealSecp256k1', (b) => api.dealSecp256k1(b as Uint8Array)],
  ['verifySecp256k1Share(share)', (b) => api.verifySecp256k1Share(b as api.Secp256k1Share, [])],
  ['sssNodeXCoordinate', (b) => api.sssNodeXCoordinate(b as string)],
  ['expectSha256', (b) => api.expectSha256(b as Uint8Array)],
  ['ed25519Wire.decodeKeyPackage', (b) => api.ed25519Wire.decodeKeyPackage(b)],
  ['ed25519Wire.decodePublicKeyPackage', (b) => api.ed25519Wire.decodePublicKeyPackage(b)],
  ['ed25519Wire.decodeSigningCommitments', (b) => api.ed25519Wire.decodeSigningCommitments(b)],
  ['ed25519Wire.decodeSigningNonces', (b) => api.ed25519Wire.decodeSigningNonces(b)],
  ['ed25519Wire.decodeSignatureShare', (b) => api.ed25519Wire.decodeSignatureShare(b)],
  ['ed25519Wire.decodeSignature', (b) => api.ed25519Wire.decodeSignature(b)],
  ['fromHex', (b) => api.fromHex(b, 'x', 32)],
];

// Values that are valid for some arguments (a string for a node name, {} is never valid).
const acceptable = new Map<string, (b: unknown) => boolean>([
  ['sssNodeXCoordinate', (b) => typeof b === 'string' && b.length > 0],
  ['keygenSeedEd25519(seed)', (b) => b === undefined], // omitted seed = random seed
  ['signRound2ClientEd25519(msg)', (b) => b instanceof Uint8Array],
  ['aggregateEd25519(msg)', (b) => b instanceof Uint8Array],
  ['verifyEd25519(msg)', (b) => b instanceof Uint8Array],
]);

describe.each(cases)('%s', (name, call) => {
  test('rejects wrong types and lengths with a CryptoError', () => {
    for (const bad of junk) {
      if (acceptable.get(name)?.(bad)) continue;
      let thrown: unknown;
      try {
        call(bad);
      } catch (e) {
        thrown = e;
      }
      expect([name, bad, thrown instanceof CryptoError]).toEqual([name, bad, true]);
      expect((thrown as CryptoError).message.length).toBeGreaterThan(10);
    }
  });
});

describe('async SSS functions', () => {
  test.each([
    ['sssSplit', (b: unknown) => api.sssSplit(b as Uint8Array, 3, 2)],
    ['sssSplit(n)', (b: unknown) => api.sssSplit(new Uint8Array(4), b as number, 2)],
    ['sssCombine', (b: unknown) => api.sssCombine(b as Uint8Array[])],
    ['sssCombine(element)', (b: unknown) => api.sssCombine([b as Uint8Array, new Uint8Array(3)])],
    ['sssReshare', (b: unknown) => api.sssReshare(b as Uint8Array[], 3, 2)],
    ['sssExtendShares', (b: unknown) => api.sssExtendShares(b as Uint8Array[], [9])],
  ])('%s rejects junk', async (name, call) => {
    for (const bad of junk) {
      if (name === 'sssSplit' && bad instanceof Uint8Array && bad.length > 0) continue; // any non-empty secret is fine
      await expect(call(bad)).rejects.toBeInstanceOf(CryptoError);
    }
  });
});
