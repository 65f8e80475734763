import type { Customer, CustomerDashboardUser } from '@svc/db';

/** What clients see of a customer (never the logo bytes in lists). */
export function customerView(c: Customer) {
  return {
    customer_id: c.id,
    label: c.label,
    email: c.email,
    status: c.status,
    has_logo: c.logo !== null,
    logo_mime_type: c.logoMimeType,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** A customer with its logo as a data: URL, for detail responses (the logo is capped at 512 KB). */
export function customerDetailView(c: Customer) {
  const logo = c.logo && c.logoMimeType ? `data:${c.logoMimeType};base64,${Buffer.from(c.logo).toString('base64')}` : null;
  return { ...customerView(c), logo };
}

/** A dashboard user account; the password hash never leaves the database layer. */
export function dashboardUserView(u: CustomerDashboardUser) {
  return {
    user_id: u.id,
    customer_id: u.customerId,
    email: u.email,
    email_verified: u.emailVerifiedAt !== null,
    email_verified_at: u.emailVerifiedAt?.toISOString() ?? null,
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
  };
}

const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };

export const customerSchema = {
  type: 'object',
  required: ['customer_id', 'label', 'email', 'status', 'has_logo', 'logo_mime_type', 'created_at', 'updated_at'],
  properties: {
    customer_id: { type: 'string', format: 'uuid' },
    label: { type: 'string' },
    email: { type: 'string', format: 'email' },
    status: { type: 'string', enum: ['ACTIVE', 'SUSPENDED'] },
    has_logo: { type: 'boolean' },
    logo_mime_type: { type: ['string', 'null'], enum: ['image/png', 'image/jpeg', 'image/webp', null] },
    created_at: dateTime,
    updated_at: dateTime,
  },
};

export const customerDetailSchema = {
  ...customerSchema,
  required: [...customerSchema.required, 'logo'],
  properties: {
    ...customerSchema.properties,
    logo: { type: ['string', 'null'], description: 'The logo as a data: URL, or null' },
  },
};

export const dashboardUserSchema = {
  type: 'object',
  required: ['user_id', 'customer_id', 'email', 'email_verified', 'email_verified_at', 'last_login_at', 'created_at'],
  properties: {
    user_id: { type: 'string', format: 'uuid' },
    customer_id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    email_verified: { type: 'boolean' },
    email_verified_at: nullableDateTime,
    last_login_at: nullableDateTime,
    created_at: dateTime,
  },
};
