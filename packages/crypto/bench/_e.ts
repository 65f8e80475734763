import { runEcdsaBench } from './ecdsa.js';
await runEcdsaBench();
