import ganache from 'ganache';

export interface LocalEvmNode {
  url: string;
  chainId: number;
  /** The node's unlocked, funded dev account (used to fund the wallet under test). */
  devAccount: `0x${string}`;
  close(): Promise<void>;
}

/** A real EVM JSON-RPC node (ganache, in-process) on 127.0.0.1 with instant mining. */
export async function startLocalEvm(chainId = 1337): Promise<LocalEvmNode> {
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId, hardfork: 'shanghai' },
    wallet: { totalAccounts: 1, defaultBalance: 1000 },
  });
  await server.listen(0, '127.0.0.1');
  const address = server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const [devAccount] = (await server.provider.request({ method: 'eth_accounts', params: [] })) as `0x${string}`[];
  if (!devAccount) throw new Error('ganache started without accounts');
  return { url, chainId, devAccount, close: () => server.close() };
}
