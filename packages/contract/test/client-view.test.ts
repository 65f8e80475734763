import { keyshareNode, tssApi } from '../src/index.js';
import { keyshareNode as keyshareNodeClient, tssApi as tssApiClient } from '../src/client.js';

// The client view (what the SDK bundles) names the same routes, at the same method and path, as the contracts the servers bind.
describe('@svc/contract/client', () => {
  it.each([
    ['tssApi', tssApi, tssApiClient],
    ['keyshareNode', keyshareNode, keyshareNodeClient],
  ] as const)('%s: every route, with its method and path', (_name, contracts, client) => {
    expect(Object.keys(client).sort()).toEqual(Object.keys(contracts).sort());
    for (const [name, route] of Object.entries(contracts)) {
      expect(client[name as keyof typeof client]).toEqual({ method: route.method, path: route.path });
    }
  });
});
