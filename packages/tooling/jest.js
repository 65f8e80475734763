// One Jest preset for the whole workspace: native ESM (the @noble v2 packages are
// ESM-only) with SWC compiling TypeScript, and `.js` import suffixes mapped back to `.ts`.
/** @type {import('jest').Config} */
const preset = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm|@noble|shamir-secret-sharing)/)'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 60_000,
};
export default preset;
