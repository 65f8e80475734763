import base from '@svc/tooling/eslint';
import moduleBoundaries from './lint/module-boundaries.js';

export default [
  ...base,
  {
    // src/app.ts, the composition root, wires the modules together; the rule leaves it alone.
    files: ['src/**/*.ts'],
    plugins: { 'tss-api': { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: { 'tss-api/module-boundaries': 'error' },
  },
];
