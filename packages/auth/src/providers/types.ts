import type { JSONWebKeySet } from 'jose';

/** Login providers, by the names the database's AuthType enum uses. */
export type AuthType = 'EMAIL' | 'GOOGLE' | 'APPLE' | 'X' | 'DISCORD' | 'TELEGRAM' | 'OIDC';

/** Who an accepted ID token names. */
export interface VerifiedIdentity {
  authType: AuthType;
  /**
   * The provider's stable id of the person (OIDC `sub`, X/Discord/Telegram user id). For a
   * generic OIDC issuer it is `<issuer>|<sub>`, so two issuers can never collide.
   */
  subject: string;
  /** Verified email, lowercased; null when the provider gives none (Telegram, X without one). */
  email: string | null;
  /** When the token stops being acceptable. */
  expiresAt: Date;
  /**
   * Names this one token, for replay records: provider, subject and a SHA-256 of what the
   * provider signed (for a JWT its header and payload, not the signature, which ECDSA lets
   * anyone re-encode; for an access token the token). Two tokens never share it.
   */
  tokenId: string;
}

export interface IdTokenVerifier {
  /** Resolves the identity, or throws IdTokenError. */
  verifyIdToken(token: string): Promise<VerifiedIdentity>;
  /** Which providers are configured (for documentation and diagnostics). */
  readonly enabled: AuthType[];
}

/** An OIDC issuer whose ID tokens are JWTs (Google, Apple, the service's email login, others). */
export interface OidcProviderConfig {
  /** Accepted `iss` values (Google uses two spellings). */
  issuer: string | string[];
  /** Accepted `aud` values: the client id(s) registered with the provider. */
  audience: string | string[];
  /** Where the issuer publishes its keys; fetched once and cached by jose. */
  jwksUri?: string;
  /** Keys given directly (the service verifying its own email ID tokens). */
  jwks?: JSONWebKeySet;
  /** Signature algorithms accepted; default RS256, ES256, EdDSA (never HS*, never none). */
  algorithms?: string[];
  /** Seconds of clock skew tolerated on exp/iat/nbf (default 30). */
  clockToleranceSeconds?: number;
}

/** A provider whose access token is checked by calling its API with the token. */
export interface UserInfoProviderConfig {
  /** API base URL, e.g. https://api.x.com or https://discord.com/api/v10 (a local server in tests). */
  baseUrl: string;
  /** How long an accepted access token counts as valid for us (default 600 s; never past the provider's own expiry when it says). */
  acceptForSeconds?: number;
  /** Timeout of the provider calls of one verification, together (default 5000 ms). */
  timeoutMs?: number;
}

/**
 * Discord: an access token counts only when Discord says it was issued to one of these
 * applications (`GET /oauth2/@me` -> `application.id`). Without this, the operator of any other
 * Discord app the person ever authorised could sign in as them with the token it holds.
 */
export interface DiscordProviderConfig extends UserInfoProviderConfig {
  /** The client id(s) (= application id, a snowflake) of this deployment's Discord application(s). */
  clientIds: string[];
}

/**
 * X: its API offers no way to learn which app an OAuth 2.0 access token was issued to (no
 * introspection; `/2/users/me` names only the user), so ANY X app the person ever authorised
 * holds tokens this verifier accepts as theirs. X login therefore needs this explicit
 * acceptance of that risk (docs/auth.md, "Access tokens of other apps").
 */
export interface XProviderConfig extends UserInfoProviderConfig {
  acceptForeignAppTokens: true;
}

export interface TelegramProviderConfig {
  botToken: string;
  /** Maximum age of the login widget's auth_date (default 86400 s). */
  maxAgeSeconds?: number;
}

/** Every provider is optional: an unconfigured one refuses its tokens. */
export interface IdTokenProvidersConfig {
  email?: OidcProviderConfig;
  google?: OidcProviderConfig;
  apple?: OidcProviderConfig;
  /** Further OIDC issuers; their users get AuthType OIDC. */
  oidc?: OidcProviderConfig[];
  x?: XProviderConfig;
  discord?: DiscordProviderConfig;
  telegram?: TelegramProviderConfig;
}

/** Longest token we look at; real ID tokens are a few KB. */
export const MAX_ID_TOKEN_LENGTH = 16_384;
