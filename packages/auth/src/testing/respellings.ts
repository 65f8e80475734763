/*
 * Other spellings of one ID token that lenient decoders accept, for tests that must show they
 * are refused or counted as the same token: base64url decoders ignore the unused low bits of a
 * segment's last character, so a JWT's signature segment has up to 15 siblings that decode to
 * the same bytes.
 */

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The other last characters of a base64url segment that a lenient decoder reads as the same bytes. */
export function lastCharRespellings(segment: string): string[] {
  const bytes = Buffer.from(segment, 'base64url');
  return [...BASE64URL_ALPHABET].map((c) => segment.slice(0, -1) + c).filter((s) => s !== segment && Buffer.from(s, 'base64url').equals(bytes));
}

/** The JWT with each other last character of its signature segment (same decoded signature). */
export function respelledSignatures(token: string): string[] {
  const cut = token.lastIndexOf('.');
  return lastCharRespellings(token.slice(cut + 1)).map((s) => `${token.slice(0, cut + 1)}${s}`);
}
