export { default } from '@svc/tooling/jest';
