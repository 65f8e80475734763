// Accounts domain shared by admin-api and dashboard-api.
export * from './password.js';
export * from './email.js';
export * from './pagination.js';
export * from './rate-limits.js';
export * from './customer-view.js';
export * from './api-key-view.js';
export * from './customer-repo.js';
export * from './dashboard-user-repo.js';
export * from './api-key-repo.js';
export * from './api-key-page.js';
export * from './allowed-origins.js';
export * from './label-field.js';
export * from './revoked-token-repo.js';
export * from './email-codes.js';
export * from './service-config.js';
export * from './main-database.js';
