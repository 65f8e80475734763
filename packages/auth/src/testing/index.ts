// Test support (import from '@svc/auth/testing'): real local stand-ins for login providers.
export { startOidcIssuer, type LocalOidcIssuer, type IssueOptions } from './oidc-issuer.js';
export { startSocialUserInfoServer, type SocialUserInfoServer, type XTestUser, type DiscordTestUser, type DiscordTokenOptions } from './social-user-info-server.js';
export { telegramLoginToken, type TelegramTestUser } from './telegram-login.js';
export { startLocalServer, type LocalServer } from './local-server.js';
export { lastCharRespellings, respelledSignatures } from './respellings.js';
