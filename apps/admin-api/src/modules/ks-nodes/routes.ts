import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { KsNodesService } from './service.js';

export const ksNodeSchema = {
  type: 'object',
  required: ['node_id', 'name', 'endpoint', 'status', 'active_wallet_share_count', 'created_at', 'updated_at'],
  properties: {
    node_id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    endpoint: { type: 'string', format: 'uri' },
    status: { type: 'string', enum: ['ACTIVE', 'INACTIVE'] },
    active_wallet_share_count: { type: 'integer', description: 'Wallets whose backup share on this node is ACTIVE' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

const nodeIdField = field.uuid();
const endpointField = field.url({ max: 2048 });

export function ksNodeRoutes(service: KsNodesService, ctx: AdminContext): RouteDef[] {
  const tags = ['key share nodes'];
  const base = { tags, guards: [ctx.adminAuth] };
  const statusRoute = (action: 'activate' | 'deactivate', status: 'ACTIVE' | 'INACTIVE') =>
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/ks_node/${action}_ks_node`,
      summary: `Sets a key share node ${status} (idempotent)`,
      description:
        status === 'INACTIVE'
          ? 'An inactive node is left out of new share registrations and recoveries; its data is kept.'
          : 'The node takes part in registrations and recoveries again.',
      body: { node_id: nodeIdField },
      errors: ['FORBIDDEN', 'KS_NODE_NOT_FOUND'],
      response: ksNodeSchema,
      handler: (req) => service.change(req.body.node_id, { status }),
    });

  return [
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/ks_node/get_all_ks_nodes`,
      summary: 'Every registered key share node, by name',
      errors: ['FORBIDDEN'],
      response: { type: 'object', required: ['nodes'], properties: { nodes: { type: 'array', items: ksNodeSchema } } },
      handler: () => service.all(),
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/ks_node/create_ks_node`,
      summary: 'Registers a key share node (ACTIVE)',
      body: {
        name: field.string({ pattern: /^[a-z0-9][a-z0-9-]{0,62}$/, message: 'name must be 1 to 63 lower-case letters, digits or dashes' }),
        endpoint: endpointField,
      },
      status: 201,
      errors: ['FORBIDDEN', 'KS_NODE_ALREADY_EXISTS'],
      response: ksNodeSchema,
      handler: (req) => service.create(req.body.name, req.body.endpoint),
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/ks_node/update_ks_node`,
      summary: "Changes a key share node's endpoint (the node moved)",
      description:
        "The name cannot change: a node's Shamir x-coordinate is derived from its name, so renaming would make its shares unusable.",
      body: { node_id: nodeIdField, endpoint: endpointField },
      errors: ['FORBIDDEN', 'KS_NODE_NOT_FOUND'],
      response: ksNodeSchema,
      handler: (req) => service.change(req.body.node_id, { endpoint: req.body.endpoint }),
    }),
    statusRoute('activate', 'ACTIVE'),
    statusRoute('deactivate', 'INACTIVE'),
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/ks_node/delete_ks_node`,
      summary: 'Deletes an INACTIVE key share node from the registry',
      description: 'An ACTIVE node answers 409 KS_NODE_ACTIVE: deactivate it first.',
      body: { node_id: nodeIdField },
      errors: ['FORBIDDEN', 'KS_NODE_NOT_FOUND', 'KS_NODE_ACTIVE'],
      response: { type: 'object', required: ['node_id'], properties: { node_id: { type: 'string', format: 'uuid' } } },
      handler: (req) => service.remove(req.body.node_id),
    }),
  ];
}
