import { prgScalars } from '../src/ecdsa/ot/prg.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { reduceBytes, Fn } from '../src/ecdsa/common/group.js';
function t(name: string, n: number, f: () => unknown) { f(); const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const c = process.cpuUsage(t0); console.log(name.padEnd(40), ((c.user + c.system) / 1000 / n).toFixed(4), 'ms'); }
const seed = randomBytes(32);
t('prgScalars 767', 200, () => prgScalars('mta chi', seed, 767));
const b = randomBytes(52);
t('sha256 52B + reduce x768', 200, () => { for (let i = 0; i < 768; i++) reduceBytes(sha256(b)); });
t('sha256 52B x768', 200, () => { for (let i = 0; i < 768; i++) sha256(b); });
const x = Fn.create(123456789n ** 5n), y = Fn.create(987654321n ** 5n);
t('Fn.mul x768', 500, () => { let a = x; for (let i = 0; i < 768; i++) a = Fn.mul(a, y); return a; });
t('Fn.add x768', 500, () => { let a = x; for (let i = 0; i < 768; i++) a = Fn.add(a, y); return a; });
