import { decodeJwt } from 'jose';
import { IdTokenError } from './id-token-error.js';
import { createOidcVerifier, type OidcVerifier } from './oidc-verifier.js';
import { createTelegramVerifier } from './telegram-verifier.js';
import { X_USER_INFO, createUserInfoVerifier, discordUserInfo } from './user-info-verifier.js';
import { MAX_ID_TOKEN_LENGTH, type AuthType, type IdTokenProvidersConfig, type IdTokenVerifier, type VerifiedIdentity } from './types.js';

/** Prefixes by which a token that is not a JWT names its provider (docs/auth.md). */
export const TOKEN_PREFIXES = { x: 'X', discord: 'DISCORD', telegram: 'TELEGRAM' } as const;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * One entry point for every login provider. A JWT is routed by its (unverified) `iss` to the
 * one configured issuer that may have signed it, which then checks everything for real; a
 * prefixed token (`x:`, `discord:`, `telegram:`) goes to that provider. Unconfigured
 * providers, unknown issuers and anything else are refused.
 */
export function createIdTokenVerifier(config: IdTokenProvidersConfig): IdTokenVerifier {
  const oidc: OidcVerifier[] = [];
  if (config.email) oidc.push(createOidcVerifier('EMAIL', config.email));
  if (config.google) oidc.push(createOidcVerifier('GOOGLE', config.google));
  if (config.apple) oidc.push(createOidcVerifier('APPLE', config.apple));
  for (const other of config.oidc ?? []) oidc.push(createOidcVerifier('OIDC', other));
  const byIssuer = new Map<string, OidcVerifier>();
  for (const v of oidc) {
    for (const iss of v.issuers) {
      if (byIssuer.has(iss)) throw new Error(`issuer ${iss} is configured twice`);
      byIssuer.set(iss, v);
    }
  }
  const prefixed: Partial<Record<keyof typeof TOKEN_PREFIXES, (rest: string) => Promise<VerifiedIdentity> | VerifiedIdentity>> = {};
  if (config.x) {
    // The type demands it; this holds configurations built without the compiler too.
    if (config.x.acceptForeignAppTokens !== true) {
      throw new Error('X login needs acceptForeignAppTokens: true: X cannot tell which app an access token was issued to (docs/auth.md)');
    }
    prefixed.x = createUserInfoVerifier(X_USER_INFO, config.x);
  }
  if (config.discord) {
    if (!config.discord.clientIds?.length) throw new Error('Discord login needs the client id(s) of the Discord application (clientIds)');
    prefixed.discord = createUserInfoVerifier(discordUserInfo(config.discord.clientIds), config.discord);
  }
  if (config.telegram) prefixed.telegram = createTelegramVerifier(config.telegram);

  const enabled: AuthType[] = [...new Set<AuthType>([...oidc.map((v) => v.authType), ...Object.keys(prefixed).map((k) => TOKEN_PREFIXES[k as keyof typeof TOKEN_PREFIXES])])];

  return {
    enabled,
    async verifyIdToken(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_ID_TOKEN_LENGTH) {
        throw new IdTokenError('malformed', 'ID token missing or too long');
      }
      const colon = token.indexOf(':');
      if (colon > 0 && !token.slice(0, colon).includes('.')) {
        const name = token.slice(0, colon);
        if (!Object.hasOwn(TOKEN_PREFIXES, name)) throw new IdTokenError('malformed', 'unknown token prefix');
        const verify = prefixed[name as keyof typeof TOKEN_PREFIXES];
        if (!verify) throw new IdTokenError('provider_not_enabled', `${name} login is not enabled`);
        return verify(token.slice(colon + 1));
      }
      if (!JWT_SHAPE.test(token)) throw new IdTokenError('malformed', 'ID token is neither a JWT nor prefixed');
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        throw new IdTokenError('malformed', 'ID token payload is not JSON');
      }
      const verifier = typeof iss === 'string' ? byIssuer.get(iss) : undefined;
      if (!verifier) throw new IdTokenError('unknown_issuer', 'no configured provider has this issuer');
      return verifier.verify(token);
    },
  };
}
