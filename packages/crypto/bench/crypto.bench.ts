// `pnpm bench:crypto`: each suite runs when imported; one line per suite, in order.
import './ed25519.js';
import { runEcdsaBench } from './ecdsa.js';
await runEcdsaBench();
