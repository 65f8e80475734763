import { runEcdsaBench } from '../bench/ecdsa.js';
await runEcdsaBench();
