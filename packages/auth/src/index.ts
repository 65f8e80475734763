export { bearerToken } from './bearer.js';
export { ServiceJwt, TOKEN_AUDIENCE, SERVICE_ISSUER, type TokenKind, type ServiceClaims, type VerifyResult, type ServiceJwtOptions } from './service-jwt.js';
export { jwtGuard, authClaims, type JwtGuardOptions } from './jwt-guard.js';
export { apiKeyGuard, apiKeyOwner, issueApiKey, hashApiKey, API_KEY_HEADER, type ApiKeyOwner, type IssuedApiKey } from './api-key.js';
export { cacheApiKeyLookup, type ApiKeyLookup, type ApiKeyCacheOptions } from './api-key-cache.js';
export * from './providers/index.js';
