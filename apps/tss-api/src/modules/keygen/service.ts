import { randomUUID } from 'node:crypto';
import type { VerifiedIdentity } from '@svc/auth';
import {
  CryptoError,
  checkKeyPackageEd25519,
  ed25519Wire,
  fromHex,
  toHex,
  verifySecp256k1Share,
  type KeyPackage,
  type PublicKeyPackage,
} from '@svc/crypto';
import { isUniqueViolation, type Curve } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { ShareCipher } from '@svc/share-cipher';
import type { KeyShareBackups } from '../../kernel/key-share-backups.js';
import type { IdTokenWitness } from '../../kernel/id-token-witness.js';
import type { UsersRepo } from '../../kernel/users-repo.js';
import { accountEmail } from './account-email.js';
import { signInResult, type SignInResult } from '../../kernel/sign-in-result.js';
import type { ServiceJwt } from '@svc/auth';
import { WalletExistsError, type KeygenRepo, type NewWallet } from './repo.js';
import { sealEd25519Share, sealJson, seedPartAad, shareAad, type Secp256k1ServerShare } from '../../kernel/wallet-secrets.js';

export interface KeygenRequest {
  ed25519?: { key_package?: unknown; public_key_package?: unknown; seed_part?: unknown };
  secp256k1?: { secret_share?: unknown; public_key?: unknown; commitments?: unknown; seed_part?: unknown };
}

interface CheckedCurve {
  curve: Curve;
  publicKey: string;
  seal(cipher: ShareCipher, walletId: string, userId: string): NewWallet['serverShare'];
  seedPart: Uint8Array;
}

function wire<T>(field: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof CryptoError) throw new AppError('INVALID_REQUEST', `${field}: ${error.message}`);
    throw error;
  }
}

function required(value: unknown, field: string): unknown {
  if (value === undefined || value === null) throw new AppError('INVALID_REQUEST', `${field} is required`);
  return value;
}

function seedPartOf(value: unknown, field: string): Uint8Array {
  const bytes = wire(field, () => fromHex(required(value, field), field));
  if (bytes.length < 2 || bytes.length > 256) throw new AppError('INVALID_REQUEST', `${field} must be 2 to 256 bytes`);
  return bytes;
}

/** keygen_2 must be the server's package and match the public key package, before anything is stored. */
function checkEd25519(body: NonNullable<KeygenRequest['ed25519']>): CheckedCurve {
  const keyPackage: KeyPackage = wire('ed25519.key_package', () => ed25519Wire.decodeKeyPackage(required(body.key_package, 'ed25519.key_package')));
  const publicKeyPackage: PublicKeyPackage = wire('ed25519.public_key_package', () =>
    ed25519Wire.decodePublicKeyPackage(required(body.public_key_package, 'ed25519.public_key_package')),
  );
  if (keyPackage.identifier !== 2) throw new AppError('INVALID_REQUEST', 'ed25519.key_package must be keygen_2 (identifier 2)');
  const seedPart = seedPartOf(body.seed_part, 'ed25519.seed_part');
  try {
    checkKeyPackageEd25519(keyPackage, publicKeyPackage);
  } catch (error) {
    if (error instanceof CryptoError) throw new AppError('KEY_PACKAGE_MISMATCH', `keygen_2 does not match the public key package: ${error.message}`);
    throw error;
  }
  return {
    curve: 'ed25519',
    publicKey: toHex(publicKeyPackage.verifyingKey),
    seedPart,
    seal: (cipher, walletId, userId) => sealEd25519Share(cipher, keyPackage, shareAad(walletId, userId)),
  };
}

/** The Feldman check of the server's secp256k1 share, so the ECDSA wallet is ready for [crypto-ecdsa]. */
function checkSecp256k1(body: NonNullable<KeygenRequest['secp256k1']>): CheckedCurve {
  const secretShare = wire('secp256k1.secret_share', () => fromHex(required(body.secret_share, 'secp256k1.secret_share'), 'secp256k1.secret_share', 32));
  const publicKey = wire('secp256k1.public_key', () => fromHex(required(body.public_key, 'secp256k1.public_key'), 'secp256k1.public_key', 33));
  const rawCommitments = required(body.commitments, 'secp256k1.commitments');
  if (!Array.isArray(rawCommitments) || rawCommitments.length !== 2) throw new AppError('INVALID_REQUEST', 'secp256k1.commitments must be 2 hex points');
  const commitments = rawCommitments.map((c, i) => wire(`secp256k1.commitments[${i}]`, () => fromHex(c, `secp256k1.commitments[${i}]`, 33)));
  const seedPart = seedPartOf(body.seed_part, 'secp256k1.seed_part');
  let valid: boolean;
  try {
    valid = verifySecp256k1Share({ identifier: 2, secretShare }, commitments);
  } catch (error) {
    if (error instanceof CryptoError) throw new AppError('INVALID_REQUEST', `secp256k1: ${error.message}`);
    throw error;
  }
  if (!valid || toHex(commitments[0]!) !== toHex(publicKey)) {
    throw new AppError('KEY_PACKAGE_MISMATCH', 'secp256k1.secret_share does not match the commitments and public key');
  }
  const stored: Secp256k1ServerShare = {
    v: 1,
    curve: 'secp256k1',
    identifier: 2,
    secret_share: toHex(secretShare),
    public_key: toHex(publicKey),
    commitments: commitments.map(toHex),
  };
  return { curve: 'secp256k1', publicKey: toHex(publicKey), seedPart, seal: (cipher, walletId, userId) => sealJson(cipher, stored, shareAad(walletId, userId)) };
}

export function keygenService(deps: { repo: KeygenRepo; users: UsersRepo; keyshare: KeyShareBackups; cipher: ShareCipher; jwt: ServiceJwt; idTokens: IdTokenWitness }) {
  return {
    async keygen(identity: VerifiedIdentity, body: KeygenRequest): Promise<SignInResult> {
      const checked: CheckedCurve[] = [];
      if (body.ed25519 !== undefined) checked.push(checkEd25519(body.ed25519));
      if (body.secp256k1 !== undefined) checked.push(checkSecp256k1(body.secp256k1));
      if (checked.length === 0) throw new AppError('INVALID_REQUEST', 'ed25519 or secp256k1 is required');

      const walletIds = checked.map(() => randomUUID());
      let userId: string;
      try {
        userId = await deps.repo.createUserAndWallets(
          { authType: identity.authType, subject: identity.subject, email: accountEmail(identity) },
          checked.map((c) => c.curve),
          (uid) =>
            checked.map((c, i) => ({
              id: walletIds[i]!,
              curve: c.curve,
              publicKey: c.publicKey,
              serverShare: c.seal(deps.cipher, walletIds[i]!, uid),
              seedPart: deps.cipher.seal(c.seedPart, seedPartAad(walletIds[i]!, uid)),
            })),
          // One keygen per ID token (any curves): a token seen by anyone else cannot create a wallet later.
          (tx, uid) => deps.idTokens.record(identity, 'keygen', uid, tx),
        );
      } catch (error) {
        if (error instanceof WalletExistsError || isUniqueViolation(error)) {
          throw new AppError('WALLET_ALREADY_EXISTS', 'Wallet already exists');
        }
        throw error;
      } finally {
        for (const c of checked) c.seedPart.fill(0);
      }
      await deps.keyshare.recordConfirmedBackups(checked.map((c, i) => ({ id: walletIds[i]!, curve: c.curve, publicKey: c.publicKey })));
      const user = await deps.users.byId(userId);
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      return signInResult(deps.jwt, user);
    },
  };
}

export type KeygenService = ReturnType<typeof keygenService>;
