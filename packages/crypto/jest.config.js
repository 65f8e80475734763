import preset from '@svc/tooling/jest';

// Dependencies here (@noble/*, shamir-secret-sharing, fast-check) ship native ESM, so they are
// loaded as-is: running noble through the SWC transform made signing ~1.5x slower under Jest.
export default { ...preset, transformIgnorePatterns: ['/node_modules/'] };
