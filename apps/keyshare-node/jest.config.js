import preset from '@svc/tooling/jest';

export default { ...preset, setupFilesAfterEnv: ['<rootDir>/test/support/check-responses.ts'] };
