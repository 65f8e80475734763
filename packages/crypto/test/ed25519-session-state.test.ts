// The server's FROST round-1 state as a session row keeps it: sealed and read back (through JSON,
// as through the database) it signs; a state that is not what was sealed is refused.
import { ed25519 } from '@noble/curves/ed25519.js';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  aggregateEd25519,
  CryptoError,
  keygenSeedEd25519,
  openEd25519SessionState,
  sealEd25519SessionState,
  signRound1ClientEd25519,
  signRound1ServerEd25519,
  signRound2ClientEd25519,
  signRound2ServerEd25519,
} from '../src/index.js';
import { json } from './ecdsa-helpers.js';

/** A real AEAD bound to the session, as tss-api's ShareCipher binds the nonces to theirs. */
const key = randomBytes(32);
const sealFor = (sessionId: string) => (packed: Uint8Array): string => {
  const nonce = randomBytes(24);
  return bytesToHex(concatBytes(nonce, xchacha20poly1305(key, nonce, utf8ToBytes(sessionId)).encrypt(packed)));
};
const openFor = (sessionId: string) => (sealed: string): Uint8Array => {
  const bytes = Uint8Array.from(Buffer.from(sealed, 'hex'));
  return xchacha20poly1305(key, bytes.subarray(0, 24), utf8ToBytes(sessionId)).decrypt(bytes.subarray(24));
};

const k = keygenSeedEd25519();
const msg = utf8ToBytes('a Solana transaction message');

function round1(sessionId = 'session-a') {
  const server = signRound1ServerEd25519(k.keygen2);
  const copy = { hiding: server.nonces.hiding.slice(), binding: server.nonces.binding.slice() };
  const state = sealEd25519SessionState({ msg, nonces: server.nonces, commitment0: server.commitment0 }, sealFor(sessionId));
  return { state: json(state), sealedFrom: server, copy };
}

describe('Ed25519 session state', () => {
  test('round trip: the JSON holds the message, its hash and the commitment in the clear, the nonces only sealed', () => {
    const { state, sealedFrom, copy } = round1();
    expect(Object.keys(state).sort()).toEqual(['commitment0', 'msg', 'msg_hash', 'nonces', 'v']);
    expect(state).toMatchObject({ v: 1, msg: bytesToHex(msg), msg_hash: bytesToHex(sha256(msg)) });
    expect(state.commitment0).toEqual({ hiding: bytesToHex(sealedFrom.commitment0.hiding), binding: bytesToHex(sealedFrom.commitment0.binding) });
    expect(state.nonces).not.toContain(bytesToHex(copy.hiding));
    expect(state.nonces).not.toContain(bytesToHex(copy.binding));
    // Sealing was the nonces' last use in memory.
    expect(sealedFrom.nonces.hiding.every((b) => b === 0) && sealedFrom.nonces.binding.every((b) => b === 0)).toBe(true);

    const back = openEd25519SessionState(state, openFor('session-a'));
    expect(back.msg).toEqual(msg);
    expect(back.nonces).toEqual(copy);
    // The commitments themselves; their subgroup witness is for the peer and is not kept.
    const { identifier, hiding, binding } = sealedFrom.commitment0;
    expect(back.commitment0).toEqual({ identifier, hiding, binding });
  });

  test('the state read back signs: round 2 on it and the client aggregate to a valid RFC 8032 signature', () => {
    const { state } = round1();
    const client = signRound1ClientEd25519(k.keygen1);
    const { msg: m, nonces, commitment0 } = openEd25519SessionState(state, openFor('session-a'));
    const commitment1 = client.commitment1;
    const signatureShare0 = signRound2ServerEd25519({ msg: m, keyPackage: k.keygen2, nonces, commitment0, commitment1 });
    const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: k.keygen1, nonces: client.nonces, commitment0, commitment1 });
    const signature = aggregateEd25519({ msg, publicKeyPackage: k.publicKeyPackage, commitment0, commitment1, signatureShare0, signatureShare1 });
    expect(ed25519.verify(signature, msg, k.publicKey, { zip215: false })).toBe(true);
  });

  test('a malformed state is refused', () => {
    const { state } = round1();
    const other = sealFor('session-a');
    const cases: [string, unknown, string][] = [
      ['not an object', 'state', 'INVALID_ENCODING'],
      ['an unknown field', { ...state, extra: 1 }, 'INVALID_ENCODING'],
      ['no nonces (already claimed)', { ...state, nonces: undefined }, 'INVALID_ENCODING'],
      ['another version', { ...state, v: 2 }, 'UNSUPPORTED_VERSION'],
      ['uppercase msg', { ...state, msg: state.msg.toUpperCase() }, 'INVALID_ENCODING'],
      ['a msg_hash of another message', { ...state, msg_hash: bytesToHex(sha256(utf8ToBytes('another'))) }, 'CHECK_FAILED'],
      ['a msg that is not the hashed one', { ...state, msg: bytesToHex(utf8ToBytes('another')) }, 'CHECK_FAILED'],
      ['a short commitment', { ...state, commitment0: { ...state.commitment0, hiding: state.commitment0.hiding.slice(2) } }, 'INVALID_ENCODING'],
      ['a commitment with an extra field', { ...state, commitment0: { ...state.commitment0, identifier: 2 } }, 'INVALID_ENCODING'],
      ['nonces that are not a string', { ...state, nonces: 7 }, 'INVALID_ENCODING'],
      ['sealed nonces of the wrong size', { ...state, nonces: other(new Uint8Array(63)) }, 'INVALID_ENCODING'],
    ];
    const codeOf = (bad: unknown): string => {
      try {
        openEd25519SessionState(bad, openFor('session-a'));
        return 'accepted';
      } catch (error) {
        return error instanceof CryptoError ? error.code : String(error);
      }
    };
    expect(cases.map(([what, bad]) => [what, codeOf(bad)])).toEqual(cases.map(([what, , code]) => [what, code]));
  });

  test('nonces sealed for another session do not open', () => {
    const { state } = round1('session-a');
    expect(() => openEd25519SessionState(state, openFor('session-b'))).toThrow();
  });

  test('only the server commitment (identifier 2) is sealed', () => {
    const client = signRound1ClientEd25519(k.keygen1);
    expect(() => sealEd25519SessionState({ msg, nonces: client.nonces, commitment0: client.commitment1 }, sealFor('s'))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
