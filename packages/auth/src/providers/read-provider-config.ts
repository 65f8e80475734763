import type { EnvReader } from '@svc/config';
import type { IdTokenProvidersConfig, OidcProviderConfig } from './types.js';

/**
 * The login providers other than the service's own email login, read from the variables
 * documented in docs/auth.md. tss-api and every key share node read them through this one
 * function, so one set of values configures both and a token one accepts the other accepts.
 */
export function readSocialProviders(env: EnvReader): Omit<IdTokenProvidersConfig, 'email'> {
  const oidc = (prefix: string, issuer: string, jwksUri: string): OidcProviderConfig | undefined => {
    const clientId = env.optionalString(`${prefix}_CLIENT_ID`);
    if (!clientId) return undefined;
    return {
      issuer: env.string(`${prefix}_ISSUER`, issuer).split(',').map((s) => s.trim()),
      audience: clientId.split(',').map((s) => s.trim()),
      jwksUri: env.url(`${prefix}_JWKS_URI`, jwksUri),
    };
  };
  const providers: Omit<IdTokenProvidersConfig, 'email'> = {};
  const google = oidc('GOOGLE', 'https://accounts.google.com,accounts.google.com', 'https://www.googleapis.com/oauth2/v3/certs');
  const apple = oidc('APPLE', 'https://appleid.apple.com', 'https://appleid.apple.com/auth/keys');
  if (google) providers.google = google;
  if (apple) providers.apple = apple;
  const rawOidc = env.optionalString('OIDC_PROVIDERS');
  if (rawOidc) {
    try {
      const list = JSON.parse(rawOidc) as { issuer?: string; client_id?: string; jwks_uri?: string }[];
      providers.oidc = list.map((p) => {
        if (!p.issuer || !p.client_id || !p.jwks_uri) throw new Error('incomplete');
        return { issuer: p.issuer, audience: p.client_id, jwksUri: p.jwks_uri };
      });
    } catch {
      env.fail('OIDC_PROVIDERS must be a JSON array of {"issuer","client_id","jwks_uri"}');
    }
  }
  if (env.bool('X_LOGIN_ENABLED', false)) {
    // X cannot say which app an access token was issued to: every X app the person ever
    // authorised holds tokens that would sign in as them here. Only an operator who accepts
    // that, by name, gets X login (docs/auth.md, "Access tokens of other apps").
    if (env.bool('X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS', false)) {
      providers.x = { baseUrl: env.url('X_API_BASE_URL', 'https://api.x.com'), acceptForeignAppTokens: true };
    } else {
      env.fail(
        'X_LOGIN_ENABLED=true also needs X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS=true: X cannot tell which app an access token was issued to, ' +
          'so the operator of any other X app a user authorised could sign in as that user and fetch their key shares (docs/auth.md)',
      );
    }
  }
  if (env.bool('DISCORD_LOGIN_ENABLED', false)) {
    const baseUrl = env.url('DISCORD_API_BASE_URL', 'https://discord.com/api/v10');
    const clientIds = (env.optionalString('DISCORD_CLIENT_ID') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (clientIds.length === 0) {
      env.fail('DISCORD_CLIENT_ID is required when DISCORD_LOGIN_ENABLED is true: the client id of your Discord application; tokens issued to any other application are refused');
    } else if (!clientIds.every((id) => /^\d{1,20}$/.test(id))) {
      env.fail('DISCORD_CLIENT_ID must be the numeric client id(s) of your Discord application(s), comma-separated');
    } else {
      providers.discord = { baseUrl, clientIds };
    }
  }
  const telegramBotToken = env.optionalString('TELEGRAM_BOT_TOKEN');
  if (telegramBotToken) {
    providers.telegram = { botToken: telegramBotToken, maxAgeSeconds: env.int('TELEGRAM_AUTH_MAX_AGE_SECONDS', 86_400, { min: 60 }) };
  }
  return providers;
}
