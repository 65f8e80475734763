import { startLocalStack } from './local-stack.js';
import { post } from '../test/support/wallet-client.js';
import { newEd25519Key, ed25519KeygenBody } from '../test/support/wallet-client.js';
const stack = await startLocalStack();
try {
  const key = await newEd25519Key();
  const created = await post<{ token: string }>(stack.url, '/tss/v1/keygen', { ed25519: ed25519KeygenBody(key) }, { authorization: `Bearer ${stack.idToken}`, 'x-api-key': stack.apiKey });
  const headers = { authorization: `Bearer ${created.body.data!.token}`, 'x-api-key': stack.apiKey };
  for (const round of [1, 2, 3]) {
    const t: number[] = [];
    for (let i = 0; i < 300; i++) {
      const s = performance.now();
      const r = await post(stack.url, '/tss/v1/sign/step2', {}, headers);
      t.push(performance.now() - s);
      if (r.status !== 400) throw new Error(String(r.status) + JSON.stringify(r.body));
    }
    t.sort((a, b) => a - b);
    console.log('round', round, 'p50', t[150]!.toFixed(2), 'p90', t[270]!.toFixed(2));
  }
  // direct to tss-api (no gateway)
} finally { await stack.stop(); }
