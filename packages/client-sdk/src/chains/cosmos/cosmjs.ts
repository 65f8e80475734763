import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';

/*
 * The cosmjs functions the Cosmos wallet uses, imported from the modules that hold them. The
 * packages' index modules are CommonJS, which no bundler can tree-shake: `@cosmjs/amino` and
 * `@cosmjs/proto-signing` load `@cosmjs/crypto`, whose libsodium module brings hash-wasm (~250
 * KiB minified) that nothing here calls. These modules need only @cosmjs/encoding, /math,
 * /utils and cosmjs-types (test/bundle-size.test.ts checks the /cosmos bundle).
 */
export { decodeSignature, encodeSecp256k1Signature } from '@cosmjs/amino/build/signature.js';
export { encodeSecp256k1Pubkey } from '@cosmjs/amino/build/encoding.js';
export { serializeSignDoc } from '@cosmjs/amino/build/signdoc.js';
export { makeSignBytes } from '@cosmjs/proto-signing/build/signing.js';

/** @cosmjs/amino's rawSecp256k1PubkeyToRawAddress (which lives beside @cosmjs/crypto): RIPEMD-160(SHA-256(compressed key)). */
export function rawSecp256k1PubkeyToRawAddress(pubkey: Uint8Array): Uint8Array {
  if (pubkey.length !== 33) throw new Error(`Invalid Secp256k1 pubkey length (compressed): ${pubkey.length}`);
  return ripemd160(sha256(pubkey));
}
