import { bytesToNumberBE } from '@noble/curves/utils.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { bigIntFromBytes } from '../src/ecdsa/common/group.js';
function t(name: string, n: number, f: () => unknown) { f(); const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const c = process.cpuUsage(t0); console.log(name.padEnd(40), ((c.user + c.system) / n).toFixed(3), 'µs'); }
const b32 = randomBytes(32), b48 = randomBytes(48);
for (let k = 0; k < 2; k++) {
t('noble 32', 300000, () => bytesToNumberBE(b32));
t('ours 32', 300000, () => bigIntFromBytes(b32));
t('noble 48', 300000, () => bytesToNumberBE(b48));
t('ours 48', 300000, () => bigIntFromBytes(b48));
}
