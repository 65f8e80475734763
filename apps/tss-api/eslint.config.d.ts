// The type of eslint.config.js, for the test that runs the config (test/module-boundaries.test.ts).
import type { Linter } from 'eslint';

declare const config: Linter.Config[];
export default config;
