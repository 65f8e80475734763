import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { reduceBytes } from './group.js';

/*
 * Fiat-Shamir transcript: a SHA-256 chain over length-prefixed (label, data) pairs, so no two
 * different sequences of messages hash alike. Proofs fork it with their own label, the prover's
 * identifier and the triple index, which binds each challenge to the session, the party and the
 * statement (a proof cannot be replayed for another party or another triple).
 */

const u32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0, false);
  return b;
};

export class Transcript {
  private constructor(private state: Uint8Array) {}

  static create(domain: string): Transcript {
    return new Transcript(sha256(concatBytes(utf8ToBytes('svc/ecdsa transcript v1:'), utf8ToBytes(domain))));
  }

  append(label: string, ...data: Uint8Array[]): this {
    const l = utf8ToBytes(label);
    const parts: Uint8Array[] = [this.state, u32(l.length), l, u32(data.length)];
    for (const d of data) parts.push(u32(d.length), d);
    this.state = sha256(concatBytes(...parts));
    return this;
  }

  fork(label: string, party: number, index: number): Transcript {
    return new Transcript(this.state).append(label, u32(party), u32(index));
  }

  /** Challenge scalar: 64 bytes of SHA-512 reduced mod n (negligible bias). */
  challenge(label: string): bigint {
    return reduceBytes(sha512(concatBytes(this.state, utf8ToBytes('challenge:'), utf8ToBytes(label))));
  }

  digest(): Uint8Array {
    return Uint8Array.from(this.state);
  }
}

export { u32 };
