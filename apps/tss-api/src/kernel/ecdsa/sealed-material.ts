import type { ShareCipher } from '@svc/share-cipher';

/*
 * Pool rows and protocol states are sealed with ShareCipher (AES-256-GCM). The associated data
 * binds each ciphertext to its row or session and its wallet, so material copied into another
 * row, another wallet's pool or another session does not open.
 */

export const tripleAad = (rowId: string, walletId: string) => `triple:${rowId}:wallet:${walletId}`;
export const presignatureAad = (rowId: string, walletId: string) => `presignature:${rowId}:wallet:${walletId}`;
export const protocolStateAad = (sessionId: string) => `tss_session:${sessionId}:ecdsa_protocol_state`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function sealJsonValue(cipher: ShareCipher, value: unknown, aad: string) {
  return cipher.seal(encoder.encode(JSON.stringify(value)), aad);
}

export function openJsonValue<T>(cipher: ShareCipher, sealed: { keyId: string; ciphertext: Uint8Array }, aad: string): T {
  const plain = cipher.open(sealed, aad);
  try {
    return JSON.parse(decoder.decode(plain)) as T;
  } finally {
    plain.fill(0);
  }
}

export function sealState(cipher: ShareCipher, sessionId: string, state: unknown): string {
  return cipher.sealToString(encoder.encode(JSON.stringify(state)), protocolStateAad(sessionId));
}

export function openState<T>(cipher: ShareCipher, sessionId: string, sealed: string): T {
  const plain = cipher.openString(sealed, protocolStateAad(sessionId));
  try {
    return JSON.parse(decoder.decode(plain)) as T;
  } finally {
    plain.fill(0);
  }
}
