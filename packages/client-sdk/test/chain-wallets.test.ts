import { verifyMessage } from 'viem';
import { Secp256k1, Secp256k1Signature, sha256 } from '@cosmjs/crypto';
import { fromBase64 } from '@cosmjs/encoding';
import { serializeSignDoc } from '@cosmjs/amino';
import { getPublicKeyFromAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { createChainWallets } from '../src/chain-wallets.js';
import { adr036SignDoc } from '../src/cosmos.js';
import { localSigners } from './helpers/local-signers.js';

describe('createChainWallets', () => {
  it('gives one wallet per family over the same signers, each with its configured options', async () => {
    const signers = localSigners();
    const { ethereum, cosmos, svm } = createChainWallets(signers, { cosmos: { prefix: 'juno' } });
    expect(cosmos.address.startsWith('juno1')).toBe(true);

    const ethSig = await ethereum.personal_sign('one wallet');
    await expect(verifyMessage({ address: ethereum.address, message: 'one wallet', signature: ethSig })).resolves.toBe(true);

    const cosmosSig = await cosmos.cosmos_signArbitrary(cosmos.address, 'one wallet');
    const digest = sha256(serializeSignDoc(adr036SignDoc(cosmos.address, 'one wallet')));
    await expect(
      Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(fromBase64(cosmosSig.signature)), digest, signers.secp256k1.publicKey),
    ).resolves.toBe(true);

    const { signature, signedMessage } = await svm.signMessage('one wallet');
    await expect(verifySignature(await getPublicKeyFromAddress(svm.address), signature as SignatureBytes, signedMessage)).resolves.toBe(true);
  });
});
