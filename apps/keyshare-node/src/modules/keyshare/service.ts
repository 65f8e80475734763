import { randomUUID } from 'node:crypto';
import { AppError } from '@svc/envelope';
import { fromHex, sssNodeXCoordinate, toHex } from '@svc/crypto';
import type { ShareCipher } from '@svc/share-cipher';
import type { Curve } from '../../generated/prisma/client.js';
import type { KeyShareRepo } from './repo.js';
import type { Caller } from '../../kernel/caller.js';

export interface WalletKey {
  curve: Curve;
  publicKey: string;
}

const NONCE_PURGE_INTERVAL_MS = 60_000;

/** The AAD of a sealed share: it opens only in its own row, for its owner, curve and key. */
function shareAad(id: string, owner: { authType: string; subject: string }, wallet: WalletKey): string {
  return `key_share:${id}:${owner.authType}:${owner.subject}:${wallet.curve}:${wallet.publicKey}:share`;
}

export class KeyShareService {
  private readonly xCoordinate: number;
  private lastPurge = 0;

  constructor(
    private readonly repo: KeyShareRepo,
    private readonly cipher: ShareCipher,
    nodeName: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.xCoordinate = sssNodeXCoordinate(nodeName);
  }

  /**
   * Stores the caller's share of a wallet. Rules (docs/keyshare.md):
   * - no share for (curve, public key) yet: stored, with or without `reshare`;
   * - a share exists and `reshare` is not set: 409 KEY_SHARE_ALREADY_EXISTS;
   * - a share exists, `reshare` is set and the caller owns it: replaced (heal after data loss
   *   elsewhere, or a fresh sharing);
   * - a share of another owner exists: 409 KEY_SHARE_ALREADY_EXISTS (same answer, nothing about the owner).
   */
  async register(caller: Caller, wallet: WalletKey, shareHex: string, reshare: boolean): Promise<null> {
    const share = fromHex(shareHex, 'share');
    if (share[share.length - 1] !== this.xCoordinate) {
      throw new AppError('INVALID_REQUEST', `share is not for this node (its x-coordinate must be ${this.xCoordinate})`);
    }
    await this.purgeNonces();
    await this.repo.transaction(async (tx) => {
      await this.consume(tx, caller);
      const existing = await this.repo.find(tx, wallet.curve, wallet.publicKey);
      if (!existing) {
        const id = randomUUID();
        const sealed = this.cipher.seal(share, shareAad(id, caller, wallet));
        const inserted = await this.repo.insert(tx, { id, authType: caller.authType, subject: caller.subject, ...wallet, shareCiphertext: sealed.ciphertext, shareKeyId: sealed.keyId });
        // Lost a race with a concurrent register of the same key: the other one stands.
        if (!inserted) throw alreadyExists();
        return;
      }
      const owned = existing.authType === caller.authType && existing.subject === caller.subject;
      if (!reshare || !owned) throw alreadyExists();
      const sealed = this.cipher.seal(share, shareAad(existing.id, caller, wallet));
      if (!(await this.repo.replace(tx, existing.id, caller, { shareCiphertext: sealed.ciphertext, shareKeyId: sealed.keyId }))) throw alreadyExists();
    });
    share.fill(0);
    return null;
  }

  /** The caller's own share; anyone else's (or none) is the same 404. */
  async fetch(caller: Caller, wallet: WalletKey): Promise<{ share_id: string; share: string }> {
    await this.purgeNonces();
    return this.repo.transaction(async (tx) => {
      await this.consume(tx, caller);
      const row = await this.repo.find(tx, wallet.curve, wallet.publicKey);
      if (!row || row.authType !== caller.authType || row.subject !== caller.subject) {
        throw new AppError('KEY_SHARE_NOT_FOUND', 'Key share not found');
      }
      const share = this.cipher.open({ keyId: row.shareKeyId, ciphertext: row.shareCiphertext }, shareAad(row.id, row, wallet));
      try {
        return { share_id: row.id, share: toHex(share) };
      } finally {
        share.fill(0);
      }
    });
  }

  async exists(wallet: WalletKey): Promise<{ exists: boolean }> {
    return { exists: await this.repo.exists(wallet.curve, wallet.publicKey) };
  }

  private async consume(tx: Parameters<Parameters<KeyShareRepo['transaction']>[0]>[0], caller: Caller): Promise<void> {
    if (!(await this.repo.consumeNonce(tx, caller.nonce, caller.nonceExpiresAt))) {
      throw new AppError('REQUEST_REPLAYED', 'This request was already served (nonce used)');
    }
  }

  /** Used nonces are only needed while their timestamp is inside the window. */
  private async purgeNonces(): Promise<void> {
    const now = this.clock();
    if (now - this.lastPurge < NONCE_PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    await this.repo.purgeNonces(new Date(now));
  }
}

function alreadyExists(): AppError {
  return new AppError('KEY_SHARE_ALREADY_EXISTS', 'Key share already exists');
}
