export { ShareCipher, type SealedSecret } from './share-cipher.js';
export { readShareCipherConfig, generateShareKey } from './config.js';
