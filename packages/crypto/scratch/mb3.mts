import { bytesToNumberBE } from '@noble/curves/utils.js';
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
function t(name: string, n: number, f: () => unknown) { f(); const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const c = process.cpuUsage(t0); console.log(name.padEnd(40), ((c.user + c.system) * 1000 / n / 1000).toFixed(3), 'µs'); }
const b32 = randomBytes(32), b48 = randomBytes(48);
const dv32 = new DataView(b32.buffer), dv48 = new DataView(b48.buffer);
t('noble bytesToNumberBE 32', 200000, () => bytesToNumberBE(b32));
t('BigInt(0x+bytesToHex) 32', 200000, () => BigInt('0x' + bytesToHex(b32)));
t('DataView u64 x4', 200000, () => (((dv32.getBigUint64(0) << 64n) | dv32.getBigUint64(8)) << 128n) | (dv32.getBigUint64(16) << 64n) | dv32.getBigUint64(24));
t('noble bytesToNumberBE 48', 200000, () => bytesToNumberBE(b48));
t('BigInt(0x+bytesToHex) 48', 200000, () => BigInt('0x' + bytesToHex(b48)));
const big = randomBytes(48 * 767); const hex = bytesToHex(big);
t('hex once + slices (767 x 48B) per scalar', 200, () => { const h = bytesToHex(big); let s = 0n; for (let i = 0; i < 767; i++) s ^= BigInt('0x' + h.slice(96 * i, 96 * i + 96)); return s; });
