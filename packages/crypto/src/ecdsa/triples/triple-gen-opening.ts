import { equalBytes } from '@noble/curves/utils.js';
import { CryptoError } from '../../errors.js';
import { checkCommitment } from './commit.js';
import { Fn, type Pt, firstFailingBaseCheck } from '../common/group.js';
import { addPointPolys, evalPointPoly, evalScalarPoly } from './polynomial.js';
import { ProofBatch } from './proofs.js';
import { CLIENT_ID, polyCommitBytes } from './triple-gen-common.js';
import type { PolySecrets } from './triple-gen-polys.js';
import type { Opening } from './triple-gen-wire.js';
import type { Transcript } from '../common/transcript.js';

export interface PeerOpeningCheck {
  sessionId: Uint8Array;
  count: number;
  /** Own polynomials (secret). */
  polys: PolySecrets;
  /** The confirmation hash this party computed. */
  confirmation: Uint8Array;
  /** The commitment the peer sent in round 1. */
  peerCommitment: Uint8Array;
  /** The peer's round-2 opening. */
  opening: Opening;
  ownId: number;
  peerId: number;
  transcript: Transcript;
}

/**
 * Round 3 of triple generation, the same on both sides with the roles swapped: the peer's
 * opening must carry the same confirmation, L_peer(0) = identity, open its commitment, prove
 * knowledge of e(0) and f(0), and its private shares must lie on the summed polynomials
 * (E(own) = a_own·G, F(own) = b_own·G). Any failure names the peer. Returns the summed
 * polynomials E, F and this party's shares a, b of every triple.
 */
export function checkPeerOpening(c: PeerOpeningCheck): { E: Pt[][]; F: Pt[][]; a: bigint[]; b: bigint[] } {
  const o = c.opening;
  const peer = c.peerId === CLIENT_ID ? 'client' : 'server';
  const fail = (code: 'CHECK_FAILED' | 'INVALID_COMMITMENT' | 'INVALID_PROOF' | 'INVALID_SHARE', msg: string) =>
    new CryptoError(code, msg, [c.peerId]);

  if (!equalBytes(o.confirmation, c.confirmation)) throw fail('CHECK_FAILED', 'confirmation differs: the parties saw different commitments');
  o.L.forEach((l, k) => {
    if (!l[0]!.is0()) throw fail('CHECK_FAILED', `L(0) of the ${peer} is not the identity (triple ${k})`);
  });
  if (!checkCommitment(c.peerCommitment, polyCommitBytes(c.sessionId, c.peerId, o.E, o.F, o.L), o.randomizer)) {
    throw fail('INVALID_COMMITMENT', `${peer} commitment does not open to the revealed E, F, L`);
  }
  const proofs = new ProofBatch();
  for (let k = 0; k < c.count; k++) {
    proofs.dlog(c.transcript.fork('dlog0', c.peerId, k), o.E[k]![0]!, o.proofsE[k]!, `dlog proof of e(0) fails (triple ${k})`);
    proofs.dlog(c.transcript.fork('dlog1', c.peerId, k), o.F[k]![0]!, o.proofsF[k]!, `dlog proof of f(0) fails (triple ${k})`);
  }
  const badProof = proofs.firstFailure();
  if (badProof !== undefined) throw fail('INVALID_PROOF', badProof);
  const E = c.polys.E.map((p, k) => addPointPolys(p, o.E[k]!));
  const F = c.polys.F.map((p, k) => addPointPolys(p, o.F[k]!));
  const a = c.polys.e.map((e, k) => Fn.add(evalScalarPoly(e, c.ownId), o.sharesE[k]!));
  const b = c.polys.f.map((f, k) => Fn.add(evalScalarPoly(f, c.ownId), o.sharesF[k]!));
  const i = c.ownId;
  // E(i) = a_i·G and F(i) = b_i·G for every triple, as one batch (a_i, b_i are secret shares).
  const bad = firstFailingBaseCheck([...E.map((p) => evalPointPoly(p, i)), ...F.map((p) => evalPointPoly(p, i))], [...a, ...b]);
  if (bad >= 0 && bad < c.count) throw fail('INVALID_SHARE', `E(${i}) ≠ a_${i}·G: bad share of e (triple ${bad})`);
  if (bad >= c.count) throw fail('INVALID_SHARE', `F(${i}) ≠ b_${i}·G: bad share of f (triple ${bad - c.count})`);
  return { E, F, a, b };
}
