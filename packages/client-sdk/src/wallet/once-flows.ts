/** The flows SvcWallet loads on first use (svc-wallet.ts): what a new wallet, a new device or an export needs. */
export { keygen } from './keygen.js';
export { recover } from './recovery.js';
export { heal } from './heal.js';
export { exportKeys } from './export.js';
