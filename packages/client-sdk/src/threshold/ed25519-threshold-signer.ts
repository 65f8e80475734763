import {
  aggregateEd25519,
  ed25519Wire,
  signRound1ClientEd25519,
  signRound2ClientEd25519,
  type KeyPackage,
  type PublicKeyPackage,
  type SigningCommitments,
} from '@svc/crypto/ed25519';
import { toHex } from '@svc/crypto/hex';
import { tssApi } from '@svc/contract/client';
import { SvcError } from '../errors.js';
import { call } from '../http/call.js';
import type { Ed25519Signer } from '../signers.js';
import { asSvcError } from '../wallet/protocol-errors.js';

/** The authenticated calls the signer makes (the wallet's AuthedClient, with silent refresh). */
export interface AuthedPoster {
  post<T>(path: string, body: unknown): Promise<T>;
}

/**
 * FROST Ed25519 2-of-2 with tss-api as the second party, in one round trip: our commitment goes
 * with the message to POST /tss/v1/sign, which answers the server's commitment0 and its
 * signature_share0 together (its nonces are drawn after ours are committed, and never stored);
 * we compute our share and aggregate. Our commitment carries its subgroup witness and the server
 * answers with its own, so neither side checks the other's points in full (docs/crypto/ed25519.md
 * in the repo). The spec's two rounds (/tss/v2/sign_ed25519/round1 and
 * round2) stay on the server for other clients. The public key package is the device's own (from
 * keygen or recovery), never the server's word, so a tampered commitment or share fails
 * aggregation and is reported as PROTOCOL_ERROR: an invalid signature is never returned.
 */
export class Ed25519ThresholdSigner implements Ed25519Signer {
  readonly publicKey: Uint8Array;
  /**
   * Our round 1 for the next signature, made while the previous one waited for the server (RFC
   * 9591 lets a signer commit ahead). Taken and cleared in one synchronous step, so one pair of
   * nonces serves one signature at most; an unused pair is simply dropped with the signer.
   */
  private spare: ReturnType<typeof signRound1ClientEd25519> | undefined;

  constructor(
    private readonly api: AuthedPoster,
    private readonly keyPackage: KeyPackage,
    private readonly publicKeyPackage: PublicKeyPackage,
  ) {
    if (keyPackage.identifier !== 1) throw new SvcError('INVALID_ARGUMENT', 'the client signs with keygen_1 (identifier 1)');
    this.publicKey = publicKeyPackage.verifyingKey;
  }

  async sign(message: Uint8Array): Promise<Uint8Array> {
    if (!(message instanceof Uint8Array) || message.length === 0) throw new SvcError('INVALID_ARGUMENT', 'message must be non-empty bytes');
    const client = this.spare ?? signRound1ClientEd25519(this.keyPackage);
    this.spare = undefined;
    const pending = call(this.api, tssApi.ed25519Sign, {
      msg: toHex(message),
      commitment1: ed25519Wire.encodeSigningCommitments(client.commitment1),
    });
    this.prepareSpare();
    const reply = await pending;

    let commitment0: SigningCommitments;
    let signatureShare1: Uint8Array;
    try {
      // Decoding checks commitment0's points (by their witnesses); computing our share, its identifier.
      commitment0 = ed25519Wire.decodeSigningCommitments(reply?.commitment0);
      signatureShare1 = signRound2ClientEd25519({ msg: message, keyPackage: this.keyPackage, nonces: client.nonces, commitment0, commitment1: client.commitment1 });
    } catch (err) {
      throw asSvcError(err, 'sign commitment0 refused');
    }
    try {
      const { identifier, share } = ed25519Wire.decodeSignatureShare(reply?.signature_share0);
      if (identifier !== 2) throw new SvcError('PROTOCOL_ERROR', `signature_share0 must carry identifier 2, got ${identifier}`);
      const signature = aggregateEd25519({
        msg: message,
        publicKeyPackage: this.publicKeyPackage,
        commitment0,
        commitment1: client.commitment1,
        signatureShare0: share,
        signatureShare1,
      });
      // No second verification (spec cli_verify): aggregateEd25519 returns only a signature that
      // passed noble's cofactored RFC 8032 check against publicKeyPackage.verifyingKey — the
      // device's own key, which is this.publicKey — with R (never the identity) and z exactly as
      // returned; verifying the same bytes under the same key again cannot change the answer.
      return signature;
    } catch (err) {
      throw asSvcError(err, 'sign signature_share0 refused');
    }
  }

  /** The next round 1, in a later task: after the request is on its way, while the server works. */
  private prepareSpare(): void {
    setTimeout(() => {
      if (this.spare) return;
      try {
        this.spare = signRound1ClientEd25519(this.keyPackage);
      } catch {
        // Nothing to prepare (a key package erased meanwhile): the next signature makes its own.
      }
    }, 0);
  }
}
