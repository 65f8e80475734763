import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { toHex } from '@svc/crypto/hex';

/**
 * What an ID-token commit is keyed on (docs/keyshare.md, "What a commit is keyed on"; docs/architecture.md,
 * invariant 6).
 *
 * One ID token has many spellings that verify: a JWT decoder ignores the unused low bits of the
 * last base64url character of the signature (about 15 other last characters decode to the same
 * bytes), an ES256 signature (r, s) also verifies as (r, n - s), and Telegram's login data can be
 * re-encoded (key order, whitespace, a number as a string). Keyed on SHA-256 of the raw string,
 * each spelling was a token nobody had committed yet: whoever saw the token (the main server)
 * could commit a re-spelling to a key of its own and fetch the user's node shares with it.
 *
 * So a commit is keyed on SHA-256 of the token's canonical form, which no re-spelling changes
 * and which still differs between any two tokens:
 * - JWT: the signing input `header.payload` (the exact bytes the signature covers, so changing
 *   them breaks the signature; the signature itself is left out). Two tokens a provider issues
 *   differ there (iat, exp, nonce, jti). Provider and subject are bound too: `iss` and `sub` are
 *   inside the signed payload (the node's verifier routes by `iss`).
 * - `telegram:<base64url JSON>`: Telegram's data-check-string (every field but `hash` as
 *   `key=value`, sorted, the same rule as @svc/auth's telegramDataCheckString) and the hash,
 *   which is the HMAC over exactly that string.
 * - `x:<access token>`, `discord:<access token>`: opaque to us; the provider checks the exact
 *   string, so the canonical form is the token itself.
 * On top of that a spelling that is not canonical is refused outright: every base64url segment
 * must be unpadded with zero unused bits (what every encoder writes), Telegram's JSON valid UTF-8.
 *
 * The client computes this before committing (IdTokenSession) and the node computes it from
 * the bearer token of every signed request, with this one function. It must classify tokens as
 * @svc/auth's createIdTokenVerifier does (prefix before the first `:`, else a JWT); a format it
 * does not know is refused (fail closed), so a new token format needs a rule here first. It may
 * refuse more than the verifier, never accept a re-spelling under another key.
 */
export const ID_TOKEN_COMMIT_DOMAIN = 'svc-id-token-commit-v1';

/** The token is not one canonical spelling of a known format (the node answers 401 UNAUTHORIZED). */
export class NonCanonicalIdTokenError extends Error {
  override readonly name = 'NonCanonicalIdTokenError';
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TELEGRAM_HASH = /^[0-9a-f]{64}$/;
/** Prefixed tokens whose canonical form is the token itself (@svc/auth TOKEN_PREFIXES, minus telegram). */
const OPAQUE_PREFIXES = new Set(['x', 'discord']);

/**
 * Whether `segment` is the one base64url spelling of its bytes (RFC 4648 §3.5, RFC 7515 §2):
 * alphabet only, no padding, no impossible length, and the unused low bits of the last
 * character zero. Decoders accept the other spellings too, which is why this is checked.
 */
export function isCanonicalBase64url(segment: string): boolean {
  if (!BASE64URL.test(segment)) return false;
  const rest = segment.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  // 2 characters carry 1 byte (4 bits unused), 3 characters carry 2 bytes (2 bits unused).
  const unusedBits = rest === 2 ? 4 : 2;
  return (ALPHABET.indexOf(segment[segment.length - 1]!) & ((1 << unusedBits) - 1)) === 0;
}

/** Decodes canonical base64url (the caller checked it with isCanonicalBase64url). */
function decodeBase64url(segment: string): Uint8Array {
  const out = new Uint8Array(Math.floor((segment.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of segment) {
    value = (value << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

function canonicalJwt(token: string): string {
  const segments = token.split('.');
  if (segments.length !== 3 || segments.some((s) => s.length === 0 || !isCanonicalBase64url(s))) {
    throw new NonCanonicalIdTokenError('a JWT must be three non-empty segments of canonical base64url');
  }
  return `jwt\n${segments[0]}.${segments[1]}`;
}

function canonicalTelegram(encoded: string): string {
  if (encoded.length === 0 || !isCanonicalBase64url(encoded)) throw new NonCanonicalIdTokenError('Telegram login data must be canonical base64url');
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(decodeBase64url(encoded)));
  } catch {
    // fatal: invalid UTF-8 is refused, not replaced; ignoreBOM: a BOM stays and JSON.parse refuses it, as the verifier does.
    throw new NonCanonicalIdTokenError('Telegram login data must be UTF-8 JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new NonCanonicalIdTokenError('Telegram login data must be a JSON object');
  const fields = data as Record<string, unknown>;
  if (!Object.values(fields).every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw new NonCanonicalIdTokenError('Telegram login data must hold only strings and numbers');
  }
  const { hash } = fields;
  if (typeof hash !== 'string' || !TELEGRAM_HASH.test(hash)) throw new NonCanonicalIdTokenError('Telegram hash must be 64 lowercase hex digits');
  // Telegram's data-check-string, exactly as the verifier builds the string its hash covers.
  const dataCheckString = Object.keys(fields)
    .filter((k) => k !== 'hash')
    .sort()
    .map((k) => `${k}=${String(fields[k])}`)
    .join('\n');
  // The hash has a fixed length, so hash + string is unambiguous.
  return `telegram\n${hash}\n${dataCheckString}`;
}

/**
 * The canonical form of an ID token (text, domain-separated: it never equals a raw token, so a
 * commit keyed on it never meets one keyed on a raw token). Throws NonCanonicalIdTokenError for a
 * spelling that is not canonical or a format nobody verifies.
 */
export function canonicalIdToken(token: string): string {
  if (typeof token !== 'string' || token.length === 0) throw new NonCanonicalIdTokenError('ID token missing');
  const colon = token.indexOf(':');
  let form: string;
  if (colon > 0 && !token.slice(0, colon).includes('.')) {
    const prefix = token.slice(0, colon);
    const rest = token.slice(colon + 1);
    if (prefix === 'telegram') form = canonicalTelegram(rest);
    else if (OPAQUE_PREFIXES.has(prefix)) form = `access-token\n${prefix}:${rest}`;
    else throw new NonCanonicalIdTokenError('unknown token prefix');
  } else {
    form = canonicalJwt(token);
  }
  return `${ID_TOKEN_COMMIT_DOMAIN}\n${form}`;
}

/**
 * The key of an ID token's commit at the nodes: lowercase hex SHA-256 of canonicalIdToken.
 * The client sends it as `id_token_hash` to /commit/v1/id-token; the node looks commits up by it.
 */
export function idTokenCommitKey(token: string): string {
  return toHex(sha256(utf8ToBytes(canonicalIdToken(token))));
}
