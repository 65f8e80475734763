import { sssNodeXCoordinate } from '@svc/crypto';
import { defineRoute, type Guard, type RouteDef } from '@svc/http';
import { SIGNED_REQUEST_DOMAIN } from '@svc/keyshare-client';
import type { NodeIdentity } from '../../identity.js';

export function nodeInfoRoutes(node: { name: string; publicUrl: string; identity: NodeIdentity }, rateLimit: Guard): RouteDef[] {
  const info = {
    name: node.name,
    public_url: node.publicUrl,
    identity_public_key: node.identity.publicKey,
    x_coordinate: sssNodeXCoordinate(node.name),
    protocol: SIGNED_REQUEST_DOMAIN,
  };
  return [
    defineRoute({
      method: 'get',
      path: '/keyshare/v1/info',
      summary: "The node's name, public identity key and Shamir x-coordinate",
      tags: ['node'],
      guards: [rateLimit],
      errors: ['RATE_LIMITED'],
      response: {
        type: 'object',
        required: Object.keys(info),
        properties: {
          name: { type: 'string' },
          public_url: { type: 'string' },
          identity_public_key: { type: 'string', description: 'hex Ed25519 public key' },
          x_coordinate: { type: 'integer', minimum: 1, maximum: 255 },
          protocol: { type: 'string', description: 'signed request format version' },
        },
      },
      handler: () => info,
    }),
  ];
}
