import { createHash } from 'node:crypto';

/**
 * The triple_pool row id of a triple: a name-based UUID (RFC 9562 version 8 layout) of the
 * wallet, the triple-generation session id (the 32-byte protocol id, hex) and the index in that
 * batch. presign/1 names triples by (session_id, index); deriving the row id from them lets the
 * server consume exactly those rows by primary key with no lookup column in the schema.
 */
export function tripleRowId(walletId: string, protocolSessionId: string, index: number): string {
  const h = createHash('sha256').update(`ecdsa-triple\0${walletId}\0${protocolSessionId}\0${index}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
