import { frostEd25519 } from '../ed25519/suite.js';
import { createFrostWireCodec } from './frost-codec.js';

/**
 * Wire codec of FROST-ED25519-SHA512-v1 objects: 32-byte little-endian scalars and 32-byte
 * RFC 8032 compressed points, as lowercase hex, e.g.
 * {"v":1,"ciphersuite":"FROST-ED25519-SHA512-v1","identifier":2,"hiding":"…","binding":"…"}.
 */
export const ed25519Wire = createFrostWireCodec(frostEd25519, 32, 32);
