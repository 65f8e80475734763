export { default } from '@svc/tooling/eslint-app';
