import { ed25519 } from '@noble/curves/ed25519.js';
import {
  aggregateEd25519,
  keygenSeedEd25519,
  signRound1ClientEd25519,
  signRound1ServerEd25519,
  signRound2ClientEd25519,
  signRound2ServerEd25519,
} from '../src/index.js';
import { measure, printTable } from './measure.js';

// Ed25519 FROST 2-of-2: each protocol step, one complete signature with both parties' work,
// and noble's single-party ed25519.sign as the baseline, all in the same process and run.
const msg = new TextEncoder().encode('a 64-byte message standing in for a Solana transaction message.');
const key = keygenSeedEd25519();
const rounds1 = () => ({ client: signRound1ClientEd25519(key.keygen1), server: signRound1ServerEd25519(key.keygen2) });
const round2Args = (r: ReturnType<typeof rounds1>) => ({ msg, commitment0: r.server.commitment0, commitment1: r.client.commitment1 });
const sharesReady = () => {
  const r = rounds1();
  const args = round2Args(r);
  return {
    ...args,
    publicKeyPackage: key.publicKeyPackage,
    signatureShare0: signRound2ServerEd25519({ ...args, keyPackage: key.keygen2, nonces: r.server.nonces }),
    signatureShare1: signRound2ClientEd25519({ ...args, keyPackage: key.keygen1, nonces: r.client.nonces }),
  };
};
const fullSignature = () => {
  const r = rounds1();
  const args = round2Args(r);
  const signatureShare0 = signRound2ServerEd25519({ ...args, keyPackage: key.keygen2, nonces: r.server.nonces });
  const signatureShare1 = signRound2ClientEd25519({ ...args, keyPackage: key.keygen1, nonces: r.client.nonces });
  return aggregateEd25519({ ...args, publicKeyPackage: key.publicKeyPackage, signatureShare0, signatureShare1 });
};
const secretKey = ed25519.utils.randomSecretKey();
const none = () => undefined;

const rows = [
  measure('keygen (seed -> 2-of-2 shares)', () => keygenSeedEd25519(), none),
  measure('round 1, client', () => signRound1ClientEd25519(key.keygen1), none),
  measure('round 1, server', () => signRound1ServerEd25519(key.keygen2), none),
  measure('round 2, client', (r) => signRound2ClientEd25519({ ...round2Args(r), keyPackage: key.keygen1, nonces: r.client.nonces }), rounds1),
  measure('round 2, server', (r) => signRound2ServerEd25519({ ...round2Args(r), keyPackage: key.keygen2, nonces: r.server.nonces }), rounds1),
  measure('aggregate (+ verify), client', (a) => aggregateEd25519(a), sharesReady),
  measure('complete 2-of-2 signature', fullSignature, none),
  measure('noble ed25519.sign (1 party)', () => ed25519.sign(msg, secretKey), none),
];
printTable('Ed25519 FROST 2-of-2 (noble @noble/curves 2.4)', rows);
const full = rows.find((r) => r.name === 'complete 2-of-2 signature');
const single = rows.find((r) => r.name.startsWith('noble ed25519.sign'));
if (full && single) {
  console.log(`  CPU of one complete 2-of-2 signature / one ed25519.sign: ${(full.cpuUsPerOp / single.cpuUsPerOp).toFixed(1)}x`);
}
