import base from './eslint.js';
import moduleBoundaries from './lint/module-boundaries.js';

// The ESLint config of an app: the shared one plus the layering rule of src/modules/ and
// src/kernel/ (lint/module-boundaries.js). src/app.ts, the composition root that wires the
// modules together, is outside both folders, so the rule leaves it alone.
export default [
  ...base,
  {
    files: ['src/**/*.ts'],
    plugins: { svc: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: { 'svc/module-boundaries': 'error' },
  },
];
