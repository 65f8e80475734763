import { Secp256k1Wallet } from '@cosmjs/amino';
import { DirectSecp256k1Wallet, type OfflineSigner } from '@cosmjs/proto-signing';
import { SigningStargateClient, type StdFee } from '@cosmjs/stargate';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing.js';
import { AuthInfo, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx.js';
import { adr036SignDoc, CosmosWallet, verifyAdr036 } from '../src/cosmos.js';
import { localSigners } from './helpers/local-signers.js';

/*
 * The Cosmos wallet as cosmjs and Keplr-style dapps use it: one key for several bech32 prefixes,
 * amino-only and direct-only signers under SigningStargateClient (offline signing, compared
 * byte for byte with cosmjs' own wallets for the same key), and signArbitrary/verifyArbitrary.
 */

const signers = localSigners();
const wallet = new CosmosWallet(signers.secp256k1);
const fee: StdFee = { amount: [{ denom: 'ujuno', amount: '500' }], gas: '200000' };

/** The transaction SigningStargateClient signs offline for `signer`: a MsgSend from its first account. */
async function signedSend(signer: OfflineSigner, chainId: string): Promise<Uint8Array> {
  const client = await SigningStargateClient.offline(signer);
  const { address } = (await signer.getAccounts())[0]!;
  const send = { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: address, toAddress: address, amount: [{ denom: 'ujuno', amount: '7' }] } };
  const tx = await client.sign(address, [send], fee, 'one key, many chains', { accountNumber: 12, sequence: 3, chainId });
  return TxRaw.encode(tx).finish();
}

function signModeOf(txRaw: Uint8Array): SignMode | undefined {
  return AuthInfo.decode(TxRaw.decode(txRaw).authInfoBytes).signerInfos[0]?.modeInfo?.single?.mode;
}

describe('one wallet, several bech32 prefixes', () => {
  it('forPrefix gives the account under each chain prefix, as cosmjs derives it from the same key', async () => {
    for (const prefix of ['cosmos', 'osmo', 'juno']) {
      const [reference] = await (await Secp256k1Wallet.fromKey(signers.secp256k1SecretKey, prefix)).getAccounts();
      const view = wallet.forPrefix(prefix);
      expect(view.address).toBe(reference!.address);
      expect(await view.getAccounts()).toEqual([{ address: reference!.address, algo: 'secp256k1', pubkey: signers.secp256k1.publicKey }]);
      expect((await wallet.aminoSigner(prefix).getAccounts())[0]!.address).toBe(reference!.address);
    }
  });
});

describe('SigningStargateClient with the amino and direct signers', () => {
  it('direct mode: the signed transaction is byte-identical to DirectSecp256k1Wallet for the same key', async () => {
    const direct = wallet.directSigner('juno');
    expect('signAmino' in direct).toBe(false);
    const reference = await DirectSecp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'juno');
    expect(await signedSend(direct, 'juno-1')).toEqual(await signedSend(reference, 'juno-1'));
    expect(await signedSend(wallet.forPrefix('juno'), 'juno-1')).toEqual(await signedSend(reference, 'juno-1'));
  });

  it('amino mode without hiding anything: byte-identical to Secp256k1Wallet for the same key', async () => {
    const amino = wallet.aminoSigner('juno');
    expect('signDirect' in amino).toBe(false);
    const reference = await Secp256k1Wallet.fromKey(signers.secp256k1SecretKey, 'juno');
    const ours = await signedSend(amino, 'juno-1');
    expect(ours).toEqual(await signedSend(reference, 'juno-1'));
    // The client chose amino sign mode from the signer's shape alone.
    expect(signModeOf(ours)).toBe(SignMode.SIGN_MODE_LEGACY_AMINO_JSON);
    expect(signModeOf(await signedSend(wallet.directSigner('juno'), 'juno-1'))).toBe(SignMode.SIGN_MODE_DIRECT);
  });
});

describe('Keplr-style signArbitrary / verifyArbitrary (ADR-036)', () => {
  const osmo = wallet.forPrefix('osmo');

  it('signs under any of its prefixes; the signature verifies for that signer and data only', async () => {
    const signature = await osmo.signArbitrary('osmosis-1', osmo.address, 'Sign in to dapp.example');
    await expect(osmo.verifyArbitrary('osmosis-1', osmo.address, 'Sign in to dapp.example', signature)).resolves.toBe(true);
    await expect(osmo.verifyArbitrary('osmosis-1', osmo.address, 'Sign in to evil.example', signature)).resolves.toBe(false);
    const stranger = new CosmosWallet(localSigners().secp256k1, { prefix: 'osmo' });
    // The signature's key is not the stranger's, whatever the signature says.
    expect(verifyAdr036(stranger.address, 'Sign in to dapp.example', signature)).toBe(false);
    expect(verifyAdr036(osmo.address, 'Sign in to dapp.example', { ...signature, signature: 'AAAA' })).toBe(false);
  });

  it("verifies what cosmjs' own wallet signs as an ADR-036 doc (bytes data)", async () => {
    const key = localSigners().secp256k1SecretKey;
    const reference = await Secp256k1Wallet.fromKey(key, 'juno');
    const { address } = (await reference.getAccounts())[0]!;
    const data = Uint8Array.from([0, 1, 2, 250]);
    const { signature } = await reference.signAmino(address, adr036SignDoc(address, data));
    expect(verifyAdr036(address, data, signature)).toBe(true);
    expect(verifyAdr036(address, Uint8Array.from([0, 1, 2]), signature)).toBe(false);
  });
});
