import { BASE_OTS } from './ot/base-ot.js';
import { MTA_OTS } from './triples/mta.js';
import { mulRows } from './triples/multiplication.js';
import { THRESHOLD } from './triples/triple-gen-common.js';

/*
 * Round trips and payload bytes of one triple-generation batch, from the message layout in
 * triple-gen-wire.ts (raw bytes of every field; the JSON wire spells them in hex, so JSON
 * bodies are about twice this plus field names). Measured JSON sizes are in docs/performance.md.
 */

/** HTTP round trips (client -> server -> client) of one triple-generation batch. */
export const TRIPLE_GEN_ROUND_TRIPS = 3;
/** HTTP round trips of one presign run (any number of presignatures). */
export const PRESIGN_ROUND_TRIPS = 2;
/** Sign: one request to the server, whose answer carries its signature share. */
export const SIGN_ROUND_TRIPS = 1;

export interface TripleBatchCost {
  count: number;
  roundTrips: number;
  clientToServerBytes: number;
  serverToClientBytes: number;
  totalBytes: number;
  bytesPerTriple: number;
  /** Rows of the single OT extension of this batch (768 per triple + padding + 256). */
  otExtensionRows: number;
  baseOts: number;
}

export function tripleBatchCost(count: number): TripleBatchCost {
  // A proof is e‖s and its commitments (uncompressed): one point for dlog, two for dlog-equality.
  const P = 33, S = 32, K = 65, DLOG = 2 * S + K, DLOG_EQ = 2 * S + 2 * K, H = 32;
  const rows = mulRows(count);
  const opening = H + 3 * THRESHOLD * P * count + H + 2 * DLOG * count + 2 * S * count;
  const round4 = count * (P + DLOG_EQ + P + DLOG + S);
  const m1 = H + H + P;
  const m1r = H + H + BASE_OTS * P;
  const m2 = H + opening + (BASE_OTS * rows) / 8 + 32 + 32 * BASE_OTS + 2 * count * S + 2 * count * 32;
  const m2r = H + opening + 2 * count * 2 * MTA_OTS * S + round4;
  const m3 = H + round4;
  const m3r = H + H;
  const up = m1 + m2 + m3;
  const down = m1r + m2r + m3r;
  return {
    count,
    roundTrips: TRIPLE_GEN_ROUND_TRIPS,
    clientToServerBytes: up,
    serverToClientBytes: down,
    totalBytes: up + down,
    bytesPerTriple: (up + down) / count,
    otExtensionRows: rows,
    baseOts: BASE_OTS,
  };
}
