import preset from '@svc/tooling/jest';

// @noble/* and shamir-secret-sharing ship native ESM: load them untransformed (faster), as @svc/crypto does.
export default { ...preset, transformIgnorePatterns: ['/node_modules/'] };
