import { sssNodeXCoordinate } from '@svc/crypto';
import { generateShareKey } from '@svc/share-cipher';
import { loadConfig } from '../src/env.js';
import { JWT_SECRET } from './support/harness.js';

// KEYSHARE_NODES at start-up: a node's Shamir x-coordinate comes from its name (255 values), and
// two nodes at one x would make every backup and heal fail, so such a list does not start.
describe('KEYSHARE_NODES', () => {
  const base = { JWT_SECRET, SHARE_ENCRYPTION_KEYS: generateShareKey('k1'), LOG_LEVEL: 'silent' };
  const nodes = (names: string[]) => ({ ...base, KEYSHARE_NODES: names.map((n, i) => `${n}=http://127.0.0.1:${4201 + i}`).join(',') });

  it('starts with names at distinct x-coordinates', () => {
    expect(loadConfig(nodes(['node-1', 'node-2', 'node-3'])).keyshare.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('refuses two names at one x-coordinate, and a name listed twice', () => {
    let i = 2;
    while (sssNodeXCoordinate(`node-${i}`) !== sssNodeXCoordinate('node-1')) i++;
    expect(() => loadConfig(nodes(['node-1', `node-${i}`]))).toThrow(`KEYSHARE_NODES: node-1 and node-${i} have the same Shamir x-coordinate: rename one`);
    expect(() => loadConfig(nodes(['node-1', 'node-2', 'node-1']))).toThrow('KEYSHARE_NODES: node-1 is listed twice');
  });
});
