import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import {
  aggregateEd25519,
  ed25519Wire,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  signRound2ClientEd25519,
  sssSplit,
  toHex,
  type Ed25519Keygen,
  type SigningCommitments,
} from '@svc/crypto';

/*
 * The client half of the journey, over real HTTP (fetch), as the SDK will do it: used by the
 * tests and by `pnpm bench:sign`.
 */

export interface Envelope<T = Record<string, unknown>> {
  status: number;
  body: { success: boolean; data?: T; code?: string; msg?: string };
}

export async function post<T = Record<string, unknown>>(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope<T>['body'] };
}

export interface Ed25519ClientKey {
  keygen: Ed25519Keygen;
  /** The server part of the seed's 2-of-2 split (the user part goes to key share nodes). */
  serverSeedPart: Uint8Array;
  userSeedPart: Uint8Array;
}

export async function newEd25519Key(): Promise<Ed25519ClientKey> {
  const keygen = keygenSeedEd25519();
  const [serverSeedPart, userSeedPart] = await sssSplit(keygen.seed, 2, 2);
  return { keygen, serverSeedPart: serverSeedPart!, userSeedPart: userSeedPart! };
}

export function ed25519KeygenBody(key: Ed25519ClientKey) {
  return {
    key_package: ed25519Wire.encodeKeyPackage(key.keygen.keygen2),
    public_key_package: ed25519Wire.encodePublicKeyPackage(key.keygen.publicKeyPackage),
    seed_part: toHex(key.serverSeedPart),
  };
}

export interface SignTimings {
  round1Ms: number;
  round2Ms: number;
}

/** One Ed25519 signature over HTTP, by either form; throws with the envelope when the server refuses. */
export type SignEd25519 = (baseUrl: string, headers: Record<string, string>, key: Ed25519Keygen, msg: Uint8Array) => Promise<{ signature: Uint8Array; sessionId: string }>;

/**
 * The spec's two rounds: client nonces, round 1 over HTTP, client share computed while round 2
 * is in flight, aggregate (which verifies).
 */
export const signEd25519: SignEd25519 = async (baseUrl, headers, key, msg) => {
  const client = signRound1ClientEd25519(key.keygen1);
  const r1 = await post<{ session_id: string; commitment0: unknown }>(baseUrl, '/tss/v2/sign_ed25519/round1', { msg: toHex(msg) }, headers);
  if (r1.status !== 200 || !r1.body.data) throw new Error(`round1 ${r1.status} ${JSON.stringify(r1.body)}`);
  const commitment0 = ed25519Wire.decodeSigningCommitments(r1.body.data.commitment0);
  const round2 = post<{ signature_share0: unknown }>(
    baseUrl,
    '/tss/v2/sign_ed25519/round2',
    { session_id: r1.body.data.session_id, commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1) },
    headers,
  );
  const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: key.keygen1, nonces: client.nonces, commitment0, commitment1: client.commitment1 });
  const r2 = await round2;
  if (r2.status !== 200 || !r2.body.data) throw new Error(`round2 ${r2.status} ${JSON.stringify(r2.body)}`);
  const signature = aggregateWith(key, msg, client.commitment1, commitment0, signatureShare1, r2.body.data.signature_share0);
  return { signature, sessionId: r1.body.data.session_id };
};

/** The signature from both shares, the server's off the wire; aggregateEd25519 verifies it. */
function aggregateWith(key: Ed25519Keygen, msg: Uint8Array, commitment1: SigningCommitments, commitment0: SigningCommitments, signatureShare1: Uint8Array, share0Wire: unknown) {
  const { share: signatureShare0 } = ed25519Wire.decodeSignatureShare(share0Wire);
  return aggregateEd25519({ msg, publicKeyPackage: key.publicKeyPackage, commitment0, commitment1, signatureShare0, signatureShare1 });
}

/** Per key, the client's round 1 made ahead for its next signature, as the SDK's signer keeps it. */
const spares = new WeakMap<Ed25519Keygen, ReturnType<typeof signRound1ClientEd25519>>();

/**
 * One Ed25519 signature in one call (POST /tss/v1/sign with commitment1), as the SDK signs: the
 * server answers its commitment and share together; the client then computes its share and
 * aggregates (which verifies).
 */
export const signEd25519OneCall: SignEd25519 = async (baseUrl, headers, key, msg) => {
  // Taken and cleared in one synchronous step: one pair of nonces serves one signature at most.
  const client = spares.get(key) ?? signRound1ClientEd25519(key.keygen1);
  spares.delete(key);
  const pending = post<{ session_id: string; commitment0: unknown; signature_share0: unknown }>(
    baseUrl,
    '/tss/v1/sign',
    { msg: toHex(msg), commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1) },
    headers,
  );
  // The next round 1 while the server works (packages/client-sdk's Ed25519ThresholdSigner does the same).
  setTimeout(() => {
    if (!spares.has(key)) spares.set(key, signRound1ClientEd25519(key.keygen1));
  }, 0);
  const res = await pending;
  if (res.status !== 200 || !res.body.data) throw new Error(`sign ${res.status} ${JSON.stringify(res.body)}`);
  const commitment0 = ed25519Wire.decodeSigningCommitments(res.body.data.commitment0);
  const signatureShare1 = signRound2ClientEd25519({ msg, keyPackage: key.keygen1, nonces: client.nonces, commitment0, commitment1: client.commitment1 });
  const signature = aggregateWith(key, msg, client.commitment1, commitment0, signatureShare1, res.body.data.signature_share0);
  return { signature, sessionId: res.body.data.session_id };
};

/** Independent check of a signature with node:crypto (OpenSSL). */
export function verifyWithNode(signature: Uint8Array, msg: Uint8Array, publicKey: Uint8Array): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
  return nodeVerify(null, msg, key, signature);
}
