import { defineRoute, field, type RouteDef } from '@svc/http';
import { API_PREFIX, type AdminContext } from '../../kernel/context.js';
import type { TssSettingsService } from './service.js';

const settingSchema = {
  type: 'object',
  required: ['signing_enabled', 'updated_at'],
  properties: {
    signing_enabled: { type: 'boolean', description: 'false: tss-api refuses new sessions with 503 SIGNING_DISABLED' },
    updated_at: { type: ['string', 'null'], format: 'date-time', description: 'null while the defaults apply' },
  },
};

export function tssSettingRoutes(service: TssSettingsService, ctx: AdminContext): RouteDef[] {
  const base = { tags: ['tss'], guards: [ctx.adminAuth], errors: ['FORBIDDEN' as const], response: settingSchema };
  return [
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/tss/get_activation_setting`,
      summary: 'Whether TSS signing is enabled (default true)',
      handler: () => service.get(),
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: `${API_PREFIX}/tss/update_activation_setting`,
      summary: 'Turns TSS signing on or off for the whole service',
      description:
        'With signing_enabled false, tss-api refuses to start new signing and keygen sessions (503 SIGNING_DISABLED); ' +
        'sessions already under way may finish.',
      body: {
        signing_enabled: field.boolean(),
      },
      handler: (req) => service.set(req.body.signing_enabled),
    }),
  ];
}
