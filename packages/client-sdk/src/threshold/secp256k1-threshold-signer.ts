import { SvcError, isSvcError } from '../errors.js';
import type { Secp256k1RawSignature, Secp256k1Signer } from '../signers.js';
import { asSvcError } from '../wallet/protocol-errors.js';
import type { PresignatureSource } from './presignature-pool.js';

/**
 * The online half of two-party ECDSA: with a presignature in hand, sign against tss-api
 * (threshold/ecdsa-tss.ts: sign/step1 carrying the client share, one round trip).
 */
export interface EcdsaSignStep<P> {
  sign(presignature: P, hash32: Uint8Array): Promise<Secp256k1RawSignature>;
}

/**
 * Signers.secp256k1 over a presignature source and a sign step. The chain layer (signDigest)
 * verifies every signature under `publicKey` and normalises s, so a wrong server answer is
 * INVALID_SIGNATURE there; this class adds the pool bookkeeping: a presignature is taken
 * once, and the source refills after each use whether the signature succeeded or not.
 */
export class Secp256k1ThresholdSigner<P> implements Secp256k1Signer {
  constructor(
    readonly publicKey: Uint8Array,
    private readonly source: PresignatureSource<P>,
    private readonly step: EcdsaSignStep<P>,
  ) {
    if (publicKey.length !== 33) throw new SvcError('INVALID_ARGUMENT', 'publicKey must be 33 bytes (compressed)');
  }

  async signHash(hash32: Uint8Array): Promise<Secp256k1RawSignature> {
    if (!(hash32 instanceof Uint8Array) || hash32.length !== 32) throw new SvcError('INVALID_ARGUMENT', 'hash must be 32 bytes');
    try {
      return await this.signOnce(hash32);
    } catch (err) {
      // The server no longer holds that presignature's half (another device of this user reset
      // the pool): nothing was signed with it. Drop the rest, and sign with a fresh one, once.
      if (!isSvcError(err, 'PRESIGNATURE_NOT_AVAILABLE')) throw err;
      this.source.clear?.();
      return this.signOnce(hash32);
    }
  }

  private async signOnce(hash32: Uint8Array): Promise<Secp256k1RawSignature> {
    const presignature = await this.source.take();
    try {
      return await this.step.sign(presignature, hash32);
    } catch (err) {
      throw asSvcError(err, 'ECDSA signing refused');
    } finally {
      this.source.replenish();
    }
  }
}
