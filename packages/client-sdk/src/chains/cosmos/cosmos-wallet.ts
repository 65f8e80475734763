import type { AccountData, AminoSignResponse, OfflineAminoSigner, StdSignature, StdSignDoc } from '@cosmjs/amino';
import { fromBech32, toBech32 } from '@cosmjs/encoding';
import type { DirectSignResponse, OfflineDirectSigner } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2.js';
import type { SignDoc } from 'cosmjs-types/cosmos/tx/v1beta1/tx.js';
import { SvcError } from '../../errors.js';
import type { Secp256k1Signer } from '../../signers.js';
import { signDigest, uncompressSecp256k1, type Secp256k1Signature } from '../secp256k1-signature.js';
import { adr036SignDoc, verifyAdr036 } from './adr036.js';
import { encodeSecp256k1Pubkey, encodeSecp256k1Signature, makeSignBytes, rawSecp256k1PubkeyToRawAddress, serializeSignDoc } from './cosmjs.js';

export interface CosmosWalletOptions {
  /** Bech32 prefix of the chain's account addresses (default "cosmos"). */
  prefix?: string;
}

/**
 * The Cosmos methods of spec §1 over the wallet's secp256k1 signer, with the encodings the
 * Cosmos SDK verifies: SHA-256 of the sorted amino JSON or of the SignDoc protobuf bytes,
 * signed as 64-byte low-s r || s. The wallet is also a cosmjs OfflineAminoSigner and
 * OfflineDirectSigner, so it can be handed to SigningStargateClient as is.
 */
export class CosmosWallet implements OfflineAminoSigner, OfflineDirectSigner {
  readonly address: string;
  readonly publicKey: Uint8Array;
  private readonly rawAddress: Uint8Array;

  constructor(
    private readonly signer: Secp256k1Signer,
    options: CosmosWalletOptions = {},
  ) {
    uncompressSecp256k1(signer.publicKey); // validates the key before any address is derived
    this.publicKey = signer.publicKey;
    this.rawAddress = rawSecp256k1PubkeyToRawAddress(signer.publicKey);
    this.address = toBech32(options.prefix ?? 'cosmos', this.rawAddress);
  }

  /** The same account under another chain's prefix (e.g. "osmo", "juno"). */
  addressFor(prefix: string): string {
    return toBech32(prefix, this.rawAddress);
  }

  /**
   * The same key as a wallet for another chain: its `address` and `getAccounts` use `prefix`,
   * which is what SigningStargateClient looks the signer up by. One signer, many chains.
   */
  forPrefix(prefix: string): CosmosWallet {
    return new CosmosWallet(this.signer, { prefix });
  }

  /**
   * A cosmjs OfflineAminoSigner only (getAccounts, signAmino; no signDirect), for
   * SigningStargateClient in amino mode (Ledger-style sign docs, chains without direct signing).
   */
  aminoSigner(prefix?: string): OfflineAminoSigner {
    const wallet = prefix === undefined ? this : this.forPrefix(prefix);
    return { getAccounts: () => wallet.getAccounts(), signAmino: (address, doc) => wallet.cosmos_signAmino(address, doc) };
  }

  /** A cosmjs OfflineDirectSigner only (getAccounts, signDirect), for protobuf sign mode. */
  directSigner(prefix?: string): OfflineDirectSigner {
    const wallet = prefix === undefined ? this : this.forPrefix(prefix);
    return { getAccounts: () => wallet.getAccounts(), signDirect: (address, doc) => wallet.cosmos_signDirect(address, doc) };
  }

  async getAccounts(): Promise<readonly AccountData[]> {
    return [{ address: this.address, algo: 'secp256k1', pubkey: this.publicKey }];
  }

  /** Signs an amino StdSignDoc (SHA-256 of its sorted JSON); the response is Keplr's AminoSignResponse. */
  async cosmos_signAmino(signerAddress: string, signDoc: StdSignDoc): Promise<AminoSignResponse> {
    this.assertSigner(signerAddress);
    let bytes: Uint8Array;
    try {
      bytes = serializeSignDoc(signDoc);
    } catch (err) {
      throw new SvcError('INVALID_ARGUMENT', 'the amino sign doc cannot be serialized', 0, { cause: err });
    }
    const { signature } = await signDigest(this.signer, sha256(bytes));
    return { signed: signDoc, signature: encodeSecp256k1Signature(this.publicKey, signature) };
  }

  /** Signs a protobuf SignDoc (SHA-256 of its canonical bytes); the response is cosmjs' DirectSignResponse. */
  async cosmos_signDirect(signerAddress: string, signDoc: SignDoc): Promise<DirectSignResponse> {
    this.assertSigner(signerAddress);
    let bytes: Uint8Array;
    try {
      bytes = makeSignBytes(signDoc);
    } catch (err) {
      throw new SvcError('INVALID_ARGUMENT', 'the direct sign doc cannot be encoded', 0, { cause: err });
    }
    const { signature } = await signDigest(this.signer, sha256(bytes));
    return { signed: signDoc, signature: encodeSecp256k1Signature(this.publicKey, signature) };
  }

  /** ADR-036: signs arbitrary data (UTF-8 text or bytes) as an off-chain amino MsgSignData. */
  async cosmos_signArbitrary(signerAddress: string, data: string | Uint8Array): Promise<StdSignature> {
    this.assertSigner(signerAddress);
    const response = await this.cosmos_signAmino(signerAddress, adr036SignDoc(signerAddress, data));
    return response.signature;
  }

  /**
   * Keplr's `signArbitrary(chainId, signer, data)`: cosmos_signArbitrary under Keplr's name. The
   * chain id only selects the key in Keplr; ADR-036 docs carry an empty chain id, so it is unused.
   */
  signArbitrary(_chainId: string, signer: string, data: string | Uint8Array): Promise<StdSignature> {
    return this.cosmos_signArbitrary(signer, data);
  }

  /** Keplr's `verifyArbitrary(chainId, signer, data, signature)`: see verifyAdr036 (any signer, not only this wallet). */
  async verifyArbitrary(_chainId: string, signer: string, data: string | Uint8Array, signature: StdSignature): Promise<boolean> {
    return verifyAdr036(signer, data, signature);
  }

  /** A raw ECDSA signature over a 32-byte digest (no hashing): low-s, checked against the key. */
  async secp256k1_sign(hash32: Uint8Array): Promise<Secp256k1Signature> {
    return signDigest(this.signer, hash32);
  }

  // cosmjs signer interfaces, so SigningStargateClient can use the wallet directly.
  signAmino(signerAddress: string, signDoc: StdSignDoc): Promise<AminoSignResponse> {
    return this.cosmos_signAmino(signerAddress, signDoc);
  }

  signDirect(signerAddress: string, signDoc: SignDoc): Promise<DirectSignResponse> {
    return this.cosmos_signDirect(signerAddress, signDoc);
  }

  /** The amino JSON public key ({ type: "tendermint/PubKeySecp256k1", value }). */
  get aminoPubkey() {
    return encodeSecp256k1Pubkey(this.publicKey);
  }

  // Any bech32 prefix is accepted as long as it names this key: one key serves every Cosmos chain.
  private assertSigner(signerAddress: string): void {
    let data: Uint8Array;
    try {
      data = fromBech32(signerAddress).data;
    } catch (err) {
      throw new SvcError('INVALID_ARGUMENT', 'signerAddress is not a bech32 address', 0, { cause: err });
    }
    if (data.length !== this.rawAddress.length || data.some((b, i) => b !== this.rawAddress[i])) {
      throw new SvcError('NOT_A_SIGNER', `${signerAddress} is not this wallet's address`);
    }
  }
}
