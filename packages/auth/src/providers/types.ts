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

/** A provider whose access token is checked by calling its user-info endpoint. */
export interface UserInfoProviderConfig {
  /** API base URL, e.g. https://api.x.com or https://discord.com/api/v10 (a local server in tests). */
  baseUrl: string;
  /** How long an accepted access token counts as valid for us (default 600 s). */
  acceptForSeconds?: number;
  /** Timeout of the user-info call (default 5000 ms). */
  timeoutMs?: number;
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
  x?: UserInfoProviderConfig;
  discord?: UserInfoProviderConfig;
  telegram?: TelegramProviderConfig;
}

/** Longest token we look at; real ID tokens are a few KB. */
export const MAX_ID_TOKEN_LENGTH = 16_384;
