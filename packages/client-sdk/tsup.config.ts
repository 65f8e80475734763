import { defineConfig } from 'tsup';

/*
 * The published build (`pnpm build`, what `pnpm pack` ships through publishConfig): ESM and CJS
 * per entry point, with declarations. The workspace packages the SDK uses (@svc/crypto,
 * @svc/contract's client view, @svc/keyshare-client, @svc/envelope's types) are private, so they
 * are bundled in, code and types; @noble/* stay dependencies and the chain libraries peers.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', ecdsa: 'src/ecdsa.ts', ethereum: 'src/ethereum.ts', wagmi: 'src/wagmi.ts', cosmos: 'src/cosmos.ts', solana: 'src/solana.ts', chains: 'src/chain-wallets.ts' },
  format: ['esm', 'cjs'],
  platform: 'neutral',
  target: 'es2022',
  tsconfig: 'tsconfig.build.json',
  noExternal: [/^@svc\//],
  dts: true,
  splitting: true,
  treeshake: true,
  sourcemap: true,
  clean: true,
});
