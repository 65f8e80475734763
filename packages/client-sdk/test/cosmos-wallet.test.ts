import { decodeSignature, makeSignDoc as makeAminoSignDoc, Secp256k1Wallet, serializeSignDoc, type StdSignDoc } from '@cosmjs/amino';
import { Secp256k1, Secp256k1Signature, sha256 } from '@cosmjs/crypto';
import { fromBase64, toBase64, toUtf8 } from '@cosmjs/encoding';
import {
  DirectSecp256k1Wallet,
  encodePubkey,
  makeAuthInfoBytes,
  makeSignBytes,
  makeSignDoc as makeDirectSignDoc,
  Registry,
} from '@cosmjs/proto-signing';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx.js';
import { TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { CosmosWallet } from '../src/cosmos.js';
import { SvcError } from '../src/index.js';
import { localSigners } from './helpers/local-signers.js';

const signers = localSigners();
const wallet = new CosmosWallet(signers.secp256k1, { prefix: 'osmo' });
const HALF_N = secp256k1.Point.CURVE().n >> 1n;

/** Verifies a 64-byte r||s signature over SHA-256(bytes) with cosmjs' own secp256k1 verifier. */
async function cosmjsVerifies(signatureB64: string, signBytes: Uint8Array, pubkey: Uint8Array): Promise<boolean> {
  const sig = Secp256k1Signature.fromFixedLength(fromBase64(signatureB64));
  return Secp256k1.verifySignature(sig, sha256(signBytes), pubkey);
}

function sendDoc(from: string): StdSignDoc {
  return makeAminoSignDoc(
    [{ type: 'cosmos-sdk/MsgSend', value: { from_address: from, to_address: 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5z5tpwp', amount: [{ denom: 'uosmo', amount: '1234' }] } }],
    { amount: [{ denom: 'uosmo', amount: '500' }], gas: '200000' },
    'osmosis-1',
    'memo with ünïcode',
    42,
    7,
  );
}

describe('Cosmos address', () => {
  it('is the bech32 of RIPEMD-160(SHA-256(compressed key)) under the configured prefix, as cosmjs derives it', async () => {
    const reference = await Secp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'osmo');
    const [account] = await reference.getAccounts();
    expect(wallet.address).toBe(account!.address);
    expect(wallet.addressFor('cosmos')).toBe(new CosmosWallet(signers.secp256k1).address);
    expect(await wallet.getAccounts()).toEqual([{ address: account!.address, algo: 'secp256k1', pubkey: signers.secp256k1.publicKey }]);
  });
});

describe('cosmos_signAmino', () => {
  it("returns Keplr's AminoSignResponse whose signature cosmjs verifies over the sorted JSON", async () => {
    const doc = sendDoc(wallet.address);
    const response = await wallet.cosmos_signAmino(wallet.address, doc);
    expect(response.signed).toEqual(doc);
    expect(response.signature.pub_key).toEqual({ type: 'tendermint/PubKeySecp256k1', value: toBase64(signers.secp256k1.publicKey) });
    const { pubkey, signature } = decodeSignature(response.signature);
    expect(signature).toHaveLength(64);
    expect(await cosmjsVerifies(response.signature.signature, serializeSignDoc(doc), pubkey)).toBe(true);
    expect(await cosmjsVerifies(response.signature.signature, serializeSignDoc({ ...doc, sequence: '8' }), pubkey)).toBe(false);
  });

  it('is byte-identical to cosmjs Secp256k1Wallet (both RFC 6979, low-s) for the same key', async () => {
    const reference = await Secp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'osmo');
    for (let i = 0; i < 4; i++) {
      const doc = { ...sendDoc(wallet.address), memo: `n${i}` };
      const ours = await wallet.cosmos_signAmino(wallet.address, doc);
      const theirs = await reference.signAmino(wallet.address, doc);
      expect(ours.signature).toEqual(theirs.signature);
      expect(BigInt(`0x${Buffer.from(fromBase64(ours.signature.signature).slice(32)).toString('hex')}`) <= HALF_N).toBe(true);
    }
  });

  it('accepts the same key under another prefix and refuses other addresses', async () => {
    const cosmosAddress = wallet.addressFor('cosmos');
    await expect(wallet.cosmos_signAmino(cosmosAddress, sendDoc(cosmosAddress))).resolves.toBeDefined();
    const stranger = new CosmosWallet(localSigners().secp256k1, { prefix: 'osmo' });
    await expect(wallet.cosmos_signAmino(stranger.address, sendDoc(stranger.address))).rejects.toMatchObject({ code: 'NOT_A_SIGNER' });
    await expect(wallet.cosmos_signAmino('not-bech32', sendDoc(wallet.address))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('cosmos_signDirect', () => {
  const registry = new Registry([['/cosmos.bank.v1beta1.MsgSend', MsgSend]]);

  function directDoc() {
    const bodyBytes = TxBody.encode(
      TxBody.fromPartial({
        messages: [
          registry.encodeAsAny({
            typeUrl: '/cosmos.bank.v1beta1.MsgSend',
            value: MsgSend.fromPartial({ fromAddress: wallet.address, toAddress: wallet.address, amount: [{ denom: 'uosmo', amount: '1' }] }),
          }),
        ],
        memo: 'direct',
      }),
    ).finish();
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: encodePubkey(wallet.aminoPubkey), sequence: 3 }],
      [{ denom: 'uosmo', amount: '2000' }],
      200_000,
      undefined,
      undefined,
    );
    return makeDirectSignDoc(bodyBytes, authInfoBytes, 'osmosis-1', 99);
  }

  it('signs SHA-256 of the SignDoc protobuf bytes, verified by cosmjs', async () => {
    const doc = directDoc();
    const response = await wallet.cosmos_signDirect(wallet.address, doc);
    expect(response.signed).toEqual(doc);
    const { pubkey } = decodeSignature(response.signature);
    expect(await cosmjsVerifies(response.signature.signature, makeSignBytes(doc), pubkey)).toBe(true);
    expect(await cosmjsVerifies(response.signature.signature, makeSignBytes({ ...doc, accountNumber: 100n }), pubkey)).toBe(false);
  });

  it('is byte-identical to cosmjs DirectSecp256k1Wallet for the same key', async () => {
    const reference = await DirectSecp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'osmo');
    const doc = directDoc();
    const ours = await wallet.signDirect(wallet.address, doc);
    const theirs = await reference.signDirect(wallet.address, doc);
    expect(ours.signature).toEqual(theirs.signature);
  });
});

describe('cosmos_signArbitrary (ADR-036)', () => {
  // The ADR-036 document written out here, independently of the SDK's adr036SignDoc.
  function adr036(signer: string, data: Uint8Array): StdSignDoc {
    return {
      chain_id: '',
      account_number: '0',
      sequence: '0',
      fee: { gas: '0', amount: [] },
      msgs: [{ type: 'sign/MsgSignData', value: { signer, data: toBase64(data) } }],
      memo: '',
    };
  }

  it('signs text as MsgSignData with empty chain id and zero fees, verified by cosmjs', async () => {
    const text = 'Login to dapp.example at 2026-11-21T10:00:00Z';
    const signature = await wallet.cosmos_signArbitrary(wallet.address, text);
    const bytes = serializeSignDoc(adr036(wallet.address, toUtf8(text)));
    expect(new TextDecoder().decode(bytes)).toContain('"chain_id":""');
    expect(await cosmjsVerifies(signature.signature, bytes, decodeSignature(signature).pubkey)).toBe(true);
    const reference = await Secp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'osmo');
    expect((await reference.signAmino(wallet.address, adr036(wallet.address, toUtf8(text)))).signature).toEqual(signature);
  });

  it('signs bytes', async () => {
    const data = Uint8Array.from([0, 255, 1, 254]);
    const signature = await wallet.cosmos_signArbitrary(wallet.address, data);
    expect(await cosmjsVerifies(signature.signature, serializeSignDoc(adr036(wallet.address, data)), signers.secp256k1.publicKey)).toBe(true);
  });
});

describe('secp256k1_sign (Cosmos)', () => {
  it('signs a raw digest that cosmjs verifies', async () => {
    const digest = sha256(toUtf8('digest'));
    const sig = await wallet.secp256k1_sign(digest);
    expect(await Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(sig.signature), digest, signers.secp256k1.publicKey)).toBe(true);
  });

  it('reports a wrong signature from the signer as INVALID_SIGNATURE', async () => {
    const liar = new CosmosWallet({ publicKey: signers.secp256k1.publicKey, signHash: localSigners().secp256k1.signHash });
    const err = await liar.cosmos_signArbitrary(liar.address, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect(err).toMatchObject({ code: 'INVALID_SIGNATURE' });
  });

  it('refuses an invalid public key up front', () => {
    expect(() => new CosmosWallet({ publicKey: new Uint8Array(33), signHash: signers.secp256k1.signHash })).toThrow(SvcError);
  });
});
