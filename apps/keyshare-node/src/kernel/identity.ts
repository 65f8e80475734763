import { ed25519 } from '@noble/curves/ed25519.js';
import { fromHex, toHex } from '@svc/crypto';
import type { ShareCipher } from '@svc/share-cipher';
import type { NodeDb } from './database.js';

/** The node's Ed25519 identity: a public key clients and the main API can pin. */
export interface NodeIdentity {
  publicKey: string;
  sign(message: Uint8Array): Uint8Array;
}

const IDENTITY_ROW = 1;
const IDENTITY_AAD = 'node_identity:1:secret_key';

/**
 * The identity from configuration (KS_NODE_IDENTITY_KEY) when given; otherwise the one stored
 * in the node's database, generated (and sealed with the node's key) at first start. Two
 * nodes starting together on one database agree: the first insert wins and both read it back.
 */
export async function loadNodeIdentity(db: NodeDb, cipher: ShareCipher, configuredSecretHex: string | undefined): Promise<NodeIdentity> {
  if (configuredSecretHex) return identityOf(fromHex(configuredSecretHex, 'KS_NODE_IDENTITY_KEY', 32));
  const fresh = ed25519.utils.randomSecretKey();
  const sealed = cipher.seal(fresh, IDENTITY_AAD);
  await db.nodeIdentity.createMany({
    data: [{ id: IDENTITY_ROW, publicKey: toHex(ed25519.getPublicKey(fresh)), secretKeyCiphertext: Buffer.from(sealed.ciphertext), secretKeyKeyId: sealed.keyId }],
    skipDuplicates: true,
  });
  fresh.fill(0);
  const row = await db.nodeIdentity.findUniqueOrThrow({ where: { id: IDENTITY_ROW } });
  return identityOf(cipher.open({ keyId: row.secretKeyKeyId, ciphertext: row.secretKeyCiphertext }, IDENTITY_AAD));
}

function identityOf(secretKey: Uint8Array): NodeIdentity {
  return { publicKey: toHex(ed25519.getPublicKey(secretKey)), sign: (message) => ed25519.sign(message, secretKey) };
}
