export * from './types.js';
export { IdTokenError, type IdTokenFailure } from './id-token-error.js';
export { createOidcVerifier, DEFAULT_OIDC_ALGORITHMS, type OidcVerifier } from './oidc-verifier.js';
export { createUserInfoVerifier, X_USER_INFO, discordUserInfo, type UserInfoDialect, type UserInfoProfile, type ProviderGet } from './user-info-verifier.js';
export { createTelegramVerifier, telegramDataCheckString, telegramHash, type TelegramLoginData } from './telegram-verifier.js';
export { createIdTokenVerifier, TOKEN_PREFIXES } from './create-id-token-verifier.js';
export { idTokenGuard, verifiedIdentity, type IdTokenGuardOptions } from './id-token-guard.js';
export { readSocialProviders } from './read-provider-config.js';
