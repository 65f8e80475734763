// @svc/keyshare-client: the client side of the key share node protocol (docs/keyshare.md).
// Browser and Node: fetch, @noble and @svc/crypto only. `./nodes` is the part sign-in needs.
export * from './nodes.js';
export * from './backup.js';
export * from './seed-parts.js';
