/**
 * `pnpm demo`: a scripted journey against the stack of `pnpm start` (gateway :4200, key share
 * nodes :4201-4203, dev mail spool .data/mail). Email sign-in with the code read from the
 * spool, keygen, one verified signature per chain family, a key share node's data wiped and
 * healed, and recovery on a fresh client. Configuration: scripts/demo-env.ts.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { serializeSignDoc } from '@cosmjs/amino';
import { Secp256k1, Secp256k1Signature, sha256 } from '@cosmjs/crypto';
import { fromBase64 } from '@cosmjs/encoding';
import { getPublicKeyFromAddress, verifySignature, type SignatureBytes } from '@solana/kit';
import { verifyMessage } from 'viem';
import { issueApiKey } from '@svc/auth';
import { createDb, ensureDatabase } from '@svc/db';
import { chainWallets, type ChainWallets } from '../src/chain-wallets.js';
import { adr036SignDoc } from '../src/cosmos.js';
import { isSvcError, MemoryShareStorage, SvcWallet } from '../src/index.js';
import { loadDemoConfig, type DemoConfig } from './demo-env.js';

const config = loadDemoConfig(process.env);
let step = 0;
const say = (text: string) => console.log(`\n[${++step}] ${text}`);
const detail = (text: string) => console.log(`    ${text}`);

async function main(): Promise<void> {
  say(`gateway ${config.gatewayUrl}`);
  const health = await fetch(`${config.gatewayUrl}/ready`).catch(() => undefined);
  if (!health?.ok) throw new Error(`the gateway at ${config.gatewayUrl} is not ready: run \`pnpm start\` first`);
  detail('ready');

  const apiKey = config.apiKey ?? (await createDemoApiKey());
  const email = `demo-${randomUUID().slice(0, 8)}@example.com`;

  say(`email sign-in as ${email} (code from ${config.mailSpoolDir})`);
  const wallet = new SvcWallet({ gatewayUrl: config.gatewayUrl, apiKey, storage: new MemoryShareStorage() });
  const first = await wallet.signIn(await emailLogin(wallet, email));
  detail(`signed in: ${first.status}`);

  say('keygen (client-dealt ed25519 + secp256k1, user seed part backed up 2-of-3 on the key share nodes)');
  const user = await wallet.keygen();
  for (const w of user.wallets) detail(`${w.curve.padEnd(9)} wallet ${w.wallet_id}  public key ${w.public_key}`);
  const check = await wallet.checkNodes();
  detail(`nodes: ${check.keyshare_node_meta.nodes.map((n) => `${n.name}=${n.wallet_status}`).join(', ')}`);

  say('one signature per chain family, verified');
  const chains = await chainWallets(wallet);
  await signEverywhere(chains);

  say(`wipe ${config.wipeNode}'s data for this wallet (rows deleted in its own database), then heal`);
  await wipeNodeShares(config, user.wallets.map((w) => w.public_key));
  const afterWipe = await wallet.signIn(await emailLogin(wallet, email));
  detail(`sign-in again (commits a fresh ID token to every node): needs_reshare=${afterWipe.check?.needs_reshare}`);
  detail(`nodes: ${afterWipe.check?.keyshare_node_meta.nodes.map((n) => `${n.name}=${n.wallet_status}`).join(', ')}`);
  const healed = await wallet.heal();
  detail(`healed ${healed.join(', ') || 'nothing'}; re-created from two healthy nodes, confirmed with user/reshare`);
  const healedCheck = await wallet.checkNodes();
  detail(`nodes: ${healedCheck.keyshare_node_meta.nodes.map((n) => `${n.name}=${n.wallet_status}`).join(', ')}`);

  say('recovery on a fresh client (empty storage)');
  const device = new SvcWallet({ gatewayUrl: config.gatewayUrl, apiKey, storage: new MemoryShareStorage() });
  const fresh = await device.signIn(await emailLogin(device, email));
  detail(`signed in: ${fresh.status}`);
  await device.recover();
  const recovered = await chainWallets(device);
  detail(`recovered: Solana ${recovered.svm.address} (same as before: ${recovered.svm.address === chains.svm.address})`);
  await signEverywhere(recovered);

  console.log('\ndemo complete');
}

async function signEverywhere(chains: ChainWallets): Promise<void> {
  const text = `svc demo ${new Date().toISOString()}`;
  const { signature } = await chains.svm.signMessage(text);
  const ok = await verifySignature(await getPublicKeyFromAddress(chains.svm.address), signature as SignatureBytes, new TextEncoder().encode(text));
  detail(`SVM      signMessage by ${chains.svm.address}: verified by @solana/kit = ${ok}`);
  if (!ok) throw new Error('the Ed25519 signature did not verify');

  // secp256k1: two-party ECDSA with a presignature from the pool keygen started filling.
  const t0 = performance.now();
  const sig = await chains.ethereum.personal_sign(text);
  const ms = (performance.now() - t0).toFixed(0);
  const valid = await verifyMessage({ address: chains.ethereum.address, message: text, signature: sig });
  detail(`Ethereum personal_sign by ${chains.ethereum.address} (${ms} ms): verified by viem = ${valid}`);
  const std = await chains.cosmos.cosmos_signArbitrary(chains.cosmos.address, text);
  const digest = sha256(serializeSignDoc(adr036SignDoc(chains.cosmos.address, text)));
  const cosmosOk = await Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(fromBase64(std.signature)), digest, fromBase64(std.pub_key.value));
  detail(`Cosmos   cosmos_signArbitrary by ${chains.cosmos.address}: verified by @cosmjs = ${cosmosOk}`);
  if (!valid || !cosmosOk) throw new Error('an ECDSA signature did not verify');
}

/** request_code, then the code from the newest mail to `email` in the dev spool. */
async function emailLogin(wallet: SvcWallet, email: string): Promise<string> {
  const since = Date.now();
  await wallet.requestEmailCode(email);
  const deadline = since + 15_000;
  while (Date.now() < deadline) {
    const code = await latestCode(email, since);
    if (code) {
      detail(`code ${code.replace(/\d/g, '*')} read from the mail spool`);
      return wallet.verifyEmailCode(email, code);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${email} in ${config.mailSpoolDir} within 15 s`);
}

async function latestCode(email: string, since: number): Promise<string | undefined> {
  const files = (await readdir(config.mailSpoolDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort().reverse();
  for (const file of files) {
    const mail = JSON.parse(await readFile(join(config.mailSpoolDir, file), 'utf8')) as { to: string[] | string; text: string; receivedAt: string };
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    if (!to.includes(email) || Date.parse(mail.receivedAt) < since - 1000) continue;
    return /\b(\d{6})\b/.exec(mail.text)?.[1];
  }
  return undefined;
}

/** A demo customer and API key, straight in the main database (the one `pnpm start` uses). */
async function createDemoApiKey(): Promise<string> {
  say('no SVC_API_KEY: creating a demo customer and API key in the main database');
  const database = await ensureDatabase();
  const db = createDb(database.url);
  try {
    const issued = issueApiKey();
    const customer = await db.customer.create({ data: { label: 'pnpm demo', email: `demo-app-${randomUUID().slice(0, 8)}@example.com` } });
    await db.apiKey.create({ data: { customerId: customer.id, keyPrefix: issued.displayPrefix, keyHash: issued.hash, label: 'pnpm demo' } });
    detail(`customer ${customer.id}, API key ${issued.displayPrefix}...`);
    return issued.key;
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}

/**
 * Data loss at one node: its rows for this wallet's keys are deleted in the node's own database
 * (keyshare_node_<n> on the stack's PostgreSQL), as if its disk had been restored from before
 * keygen. The node keeps running; user/check then finds the share missing.
 */
async function wipeNodeShares(cfg: DemoConfig, publicKeys: string[]): Promise<void> {
  const databaseName = `keyshare_${cfg.wipeNode.replace(/-/g, '_')}`;
  const database = await ensureDatabase({ extraDatabases: [databaseName] });
  const url = database.databases[databaseName];
  if (!url) throw new Error(`no database ${databaseName}`);
  const db = createDb(url);
  try {
    const deleted = await db.$executeRaw`DELETE FROM key_shares WHERE public_key = ANY(${publicKeys})`;
    detail(`${cfg.wipeNode}: ${deleted} share rows deleted from ${databaseName}`);
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`\ndemo failed: ${isSvcError(error) ? `${error.code}: ${error.msg}` : error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
