import type { ApiKeyRepo } from './api-key-repo.js';
import { apiKeyView } from './api-key-view.js';
import type { OffsetPage } from './pagination.js';

/** One page of a customer's API keys as both admin-api and dashboard-api answer it (never the keys themselves). */
export async function apiKeyPage(keys: ApiKeyRepo, customerId: string, page: OffsetPage) {
  const { rows, total } = await keys.list(customerId, page);
  return { api_keys: rows.map(apiKeyView), pagination: { ...page, total } };
}
