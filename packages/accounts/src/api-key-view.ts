import type { ApiKey } from '@svc/db';

/** What clients see of an API key: never the key (shown once, at creation) nor its hash. */
export function apiKeyView(k: ApiKey) {
  return {
    api_key_id: k.id,
    customer_id: k.customerId,
    label: k.label,
    key_prefix: k.keyPrefix,
    allowed_origins: k.allowedOrigins,
    status: k.revokedAt ? ('REVOKED' as const) : ('ACTIVE' as const),
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    created_at: k.createdAt.toISOString(),
  };
}

/** A key just issued, with the key itself: the one answer that carries it (issuedApiKeySchema). */
export function issuedApiKeyView(k: ApiKey, key: string) {
  return { ...apiKeyView(k), key };
}

export const apiKeySchema = {
  type: 'object',
  required: ['api_key_id', 'customer_id', 'label', 'key_prefix', 'allowed_origins', 'status', 'revoked_at', 'last_used_at', 'created_at'],
  properties: {
    api_key_id: { type: 'string', format: 'uuid' },
    customer_id: { type: 'string', format: 'uuid' },
    label: { type: 'string' },
    key_prefix: { type: 'string', description: 'First 12 characters of the key, to tell keys apart' },
    allowed_origins: {
      type: 'array',
      items: { type: 'string' },
      description: 'Browser origins tss-api accepts this key from (Origin header); empty: any origin',
    },
    status: { type: 'string', enum: ['ACTIVE', 'REVOKED'] },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

/** A key just issued: the only response that ever carries the key itself. */
export const issuedApiKeySchema = {
  ...apiKeySchema,
  required: [...apiKeySchema.required, 'key'],
  properties: {
    ...apiKeySchema.properties,
    key: { type: 'string', description: 'The API key (X-API-Key). Shown once: only its SHA-256 is stored.' },
  },
};
