import { readFileSync } from 'node:fs';
import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';
import { frostEd25519 } from '../src/index.js';

// RFC 9591 Appendix E.1, FROST(Ed25519, SHA-512), 2-of-3 with signers 1 and 3, used as
// published (see _source in the JSON). Every expected value below comes from the file.
interface Round1 {
  identifier: number;
  hiding_nonce_randomness: string;
  binding_nonce_randomness: string;
  hiding_nonce: string;
  binding_nonce: string;
  hiding_nonce_commitment: string;
  binding_nonce_commitment: string;
}
const vectors = JSON.parse(readFileSync(new URL('./vectors/rfc9591-frost-ed25519-sha512.json', import.meta.url), 'utf8')) as {
  config: { MAX_PARTICIPANTS: string; MIN_PARTICIPANTS: string };
  inputs: {
    participant_list: number[];
    group_secret_key: string;
    group_public_key: string;
    message: string;
    share_polynomial_coefficients: string[];
    participant_shares: { identifier: number; participant_share: string }[];
  };
  round_one_outputs: { outputs: Round1[] };
  round_two_outputs: { outputs: { identifier: number; sig_share: string }[] };
  final_output: { sig: string };
};

const { inputs } = vectors;
const signers = { min: Number(vectors.config.MIN_PARTICIPANTS), max: Number(vectors.config.MAX_PARTICIPANTS) };
const id = (n: number) => ed25519_FROST.Identifier.fromNumber(n);
const msg = hexToBytes(inputs.message);
const shareOf = (n: number) => {
  const s = inputs.participant_shares.find((p) => p.identifier === n);
  if (!s) throw new Error(`vector has no share ${n}`);
  return { identifier: id(n), signingShare: hexToBytes(s.participant_share) };
};
const Fn = ed25519_FROST.utils.Fn;
// Public package from the vector's inputs: VSS commitments to the published polynomial and the
// verifying shares of the published participant shares.
const pub = {
  signers,
  commitments: [inputs.group_secret_key, ...inputs.share_polynomial_coefficients].map((c) =>
    ed25519.Point.BASE.multiply(Fn.fromBytes(hexToBytes(c))).toBytes(),
  ),
  verifyingShares: Object.fromEntries(
    inputs.participant_shares.map((p) => [
      id(p.identifier),
      ed25519.Point.BASE.multiply(Fn.fromBytes(hexToBytes(p.participant_share))).toBytes(),
    ]),
  ),
};

/** An RNG that replays the vector's nonce randomness in the order commit() draws it. */
const replay = (...chunks: string[]) => {
  const queue = chunks.map((c) => hexToBytes(c));
  return (n = 32) => {
    const next = queue.shift();
    if (!next || next.length !== n) throw new Error('unexpected RNG draw');
    return next;
  };
};

describe.each([
  ['noble ed25519_FROST', ed25519_FROST],
  // The instance @svc/crypto signs with: createFROST without the duplicated hook, cached point checks.
  ['@svc/crypto frostEd25519 (createFROST, point cache)', frostEd25519.frost],
])('RFC 9591 E.1 FROST(Ed25519, SHA-512) with %s', (_name, frost) => {
  test('group public key is the group secret key times G', () => {
    expect(bytesToHex(ed25519.Point.BASE.multiply(Fn.fromBytes(hexToBytes(inputs.group_secret_key))).toBytes())).toBe(inputs.group_public_key);
    expect(bytesToHex(pub.commitments[0] as Uint8Array)).toBe(inputs.group_public_key);
  });

  test('every participant share verifies against the polynomial commitments (vss_verify)', () => {
    for (const p of inputs.participant_shares) expect(() => frost.validateSecret(shareOf(p.identifier), pub)).not.toThrow();
  });

  test('signers 1 and 3 recover the group secret key', () => {
    const shares = inputs.participant_list.map(shareOf);
    expect(bytesToHex(frost.combineSecret(shares, signers))).toBe(inputs.group_secret_key);
  });

  test('round one, round two and aggregation reproduce the published values', () => {
    const round1 = vectors.round_one_outputs.outputs.map((o) => {
      const out = frost.commit(shareOf(o.identifier), replay(o.hiding_nonce_randomness, o.binding_nonce_randomness));
      expect(bytesToHex(out.nonces.hiding)).toBe(o.hiding_nonce);
      expect(bytesToHex(out.nonces.binding)).toBe(o.binding_nonce);
      expect(bytesToHex(out.commitments.hiding)).toBe(o.hiding_nonce_commitment);
      expect(bytesToHex(out.commitments.binding)).toBe(o.binding_nonce_commitment);
      return { identifier: o.identifier, ...out };
    });
    const commitmentList = round1.map((r) => r.commitments);
    const shares: Record<string, Uint8Array> = {};
    for (const expected of vectors.round_two_outputs.outputs) {
      const r = round1.find((x) => x.identifier === expected.identifier);
      if (!r) throw new Error('missing round 1 output');
      const share = frost.signShare(shareOf(expected.identifier), pub, r.nonces, commitmentList, msg);
      expect(bytesToHex(share)).toBe(expected.sig_share);
      expect(frost.verifyShare(pub, commitmentList, msg, id(expected.identifier), share)).toBe(true);
      shares[id(expected.identifier)] = share;
    }
    const sig = frost.aggregate(pub, commitmentList, msg, shares);
    expect(bytesToHex(sig)).toBe(vectors.final_output.sig);
    // The FROST signature is a plain RFC 8032 signature under the group key.
    expect(ed25519.verify(sig, msg, hexToBytes(inputs.group_public_key))).toBe(true);
  });
});
