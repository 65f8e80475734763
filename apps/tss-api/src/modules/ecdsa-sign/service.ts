import { randomUUID } from 'node:crypto';
import { CryptoError, fromHex } from '@svc/crypto';
import { signCombine, type Presignature } from '@svc/crypto/ecdsa';
import { isUniqueViolation } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { ShareCipher } from '@svc/share-cipher';
import { openJsonValue, presignatureAad } from '../../kernel/ecdsa/sealed-material.js';
import { usableWallet, type SigningWalletRepo } from '../../kernel/signing-wallet.js';
import type { SessionsRepo } from '../../kernel/sessions/repo.js';
import type { SessionsService } from '../../kernel/sessions/service.js';
import type { Caller } from '../../kernel/caller.js';
import type { ClaimSessionState } from '../../kernel/sessions/claim.js';
import type { EcdsaSignRepo, EcdsaSignState, TakenPresignature } from './repo.js';

export interface SignOutput {
  /** 32 bytes, big-endian, as numbers 0-255. */
  r: number[];
  /** 32 bytes, big-endian, low s (s <= n/2), as numbers 0-255. */
  s: number[];
  /** 0..3: bit 0 parity of R.y, bit 1 set when x(R) >= n; Ethereum v = 27 + recovery_id. */
  recovery_id: number;
}

export interface Step1Response {
  session_id: string;
  /** What the client needs to check it signs with the presignature it meant: R of that presignature. */
  msgs_0: { presignature_id: string; big_r: string };
  /** Present when msgs_1 carried the client's signature_share (one round trip); else null until step 2. */
  sign_output: SignOutput | null;
}

export interface Step2Response {
  session_id: string;
  sign_output: SignOutput;
}

const array = (bytes: Uint8Array) => Array.from(bytes);

/**
 * Online two-party ECDSA, server side. The server is the combiner: the client sends its own
 * signature share (s_1, computable from its presignature and the hash alone), the server adds
 * its share, normalises, verifies and answers the finished (public) signature. Its own share
 * never leaves the server, and it is computed only from a presignature the database has
 * already marked CONSUMED (step 1) and claimed out of the session (step 2, sessions/claim.ts).
 */
export function ecdsaSignService(deps: {
  wallets: SigningWalletRepo;
  repo: EcdsaSignRepo;
  claim: ClaimSessionState;
  sessions: SessionsService;
  sessionsRepo: SessionsRepo;
  cipher: ShareCipher;
  sessionTtlSeconds: number;
}) {
  const { repo, cipher } = deps;

  async function whyNotTaken(userId: string): Promise<never> {
    usableWallet(await deps.wallets.secp256k1(userId));
    // Unknown, another wallet's, or consumed: one answer, so ids cannot be probed.
    throw new AppError('PRESIGNATURE_NOT_AVAILABLE', 'Presignature not available');
  }

  /** Opens the presignature, computes the server share, combines and verifies; aborts the session on a bad client share. */
  async function finish(taken: TakenPresignature, hash: Uint8Array, clientShare: string, stage: string): Promise<SignOutput> {
    const sealed = taken.presignature;
    const presignature = openJsonValue<Presignature>(
      cipher,
      { keyId: sealed.key_id, ciphertext: Buffer.from(sealed.material, 'base64') },
      presignatureAad(taken.state.presignature_id, taken.walletId),
    );
    let output: SignOutput;
    try {
      // Our share is computed inside signCombine and never leaves it: only the verified signature does.
      const sig = signCombine(presignature, hash, clientShare, fromHex(taken.publicKey, 'public_key', 33));
      output = { r: array(sig.signature.subarray(0, 32)), s: array(sig.signature.subarray(32)), recovery_id: sig.recovery };
    } catch (error) {
      if (!(error instanceof CryptoError)) throw error;
      await deps.sessionsRepo.end(taken.sessionId, taken.userId, 'ABORTED', `aborted:${error.code}`);
      throw new AppError('INVALID_PROTOCOL_MESSAGE', `${stage} refused: ${error.message}`);
    }
    if (!(await repo.complete({ sessionId: taken.sessionId, walletId: taken.walletId, msgHash: taken.state.msg_hash, stage }))) {
      throw new AppError('SESSION_STATE_CONSUMED', 'Session already used');
    }
    return output;
  }

  return {
    /** `sessionId`: the client's choice (spec §2), else a fresh one. */
    async step1(caller: Caller, msg: number[], msgs1: { presignature_id: string; signature_share?: string }, sessionId?: string): Promise<Step1Response> {
      const hash = Uint8Array.from(msg);
      const msgHash = Buffer.from(hash).toString('hex');
      const taken = await repo
        .takePresignature({
          presignatureId: msgs1.presignature_id,
          userId: caller.userId,
          sessionId: sessionId ?? randomUUID(),
          msgHash,
          expiresAt: new Date(Date.now() + deps.sessionTtlSeconds * 1000),
          customerId: caller.customerId,
          apiKeyId: caller.apiKeyId,
          keepForStep2: msgs1.signature_share === undefined,
        })
        .catch((error: unknown) => {
          // The session insert failed on its id: the whole statement is undone, the presignature stays UNUSED.
          if (sessionId !== undefined && isUniqueViolation(error)) throw new AppError('SESSION_ALREADY_EXISTS', 'Session already exists');
          throw error;
        });
      if (!taken) return whyNotTaken(caller.userId);
      const sealed = taken.presignature;
      const presignature = openJsonValue<Presignature>(
        cipher,
        { keyId: sealed.key_id, ciphertext: Buffer.from(sealed.material, 'base64') },
        presignatureAad(taken.state.presignature_id, taken.walletId),
      );
      const msgs0 = { presignature_id: taken.state.presignature_id, big_r: presignature.big_r };
      presignature.share_k = '';
      presignature.share_sigma = '';
      if (msgs1.signature_share === undefined) return { session_id: taken.sessionId, msgs_0: msgs0, sign_output: null };
      const output = await finish(taken, hash, msgs1.signature_share, 'step1-combine');
      return { session_id: taken.sessionId, msgs_0: msgs0, sign_output: output };
    },

    async step2(caller: Caller, sessionId: string, msg: number[], msgs1: { signature_share: string }): Promise<Step2Response> {
      const claimed = await deps.claim<EcdsaSignState>({ sessionId, userId: caller.userId, kind: 'SIGN_ECDSA', secret: 'presignature' });
      if (!claimed) return deps.sessions.explainUnavailable(sessionId, caller.userId, 'SIGN_ECDSA');
      const taken: TakenPresignature = {
        sessionId,
        walletId: claimed.walletId,
        userId: claimed.userId,
        publicKey: claimed.wallet.publicKey,
        state: claimed.state,
        presignature: claimed.state.presignature!,
      };
      const hash = Uint8Array.from(msg);
      if (Buffer.from(hash).toString('hex') !== taken.state.msg_hash) {
        await deps.sessionsRepo.end(sessionId, caller.userId, 'ABORTED', 'aborted:MSG_MISMATCH');
        throw new AppError('INVALID_PROTOCOL_MESSAGE', 'step2 refused: msg differs from the hash given at step1');
      }
      return { session_id: sessionId, sign_output: await finish(taken, hash, msgs1.signature_share, 'step2') };
    },
  };
}

export type EcdsaSignService = ReturnType<typeof ecdsaSignService>;
