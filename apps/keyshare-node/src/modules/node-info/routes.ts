import { keyshareNode } from '@svc/contract';
import { sssNodeXCoordinate } from '@svc/crypto';
import { bindRoute, type Guard, type RouteDef } from '@svc/http';
import { SIGNED_REQUEST_DOMAIN } from '@svc/keyshare-client';
import type { NodeIdentity } from '../../kernel/identity.js';

export function nodeInfoRoutes(node: { name: string; publicUrl: string; identity: NodeIdentity }, rateLimit: Guard): RouteDef[] {
  const info = {
    name: node.name,
    public_url: node.publicUrl,
    identity_public_key: node.identity.publicKey,
    x_coordinate: sssNodeXCoordinate(node.name),
    protocol: SIGNED_REQUEST_DOMAIN,
  };
  return [bindRoute(keyshareNode.nodeInfo, { guards: [rateLimit], handler: () => info })];
}
