import { apiKeyView, customerDetailView, dashboardUserView, findCustomer, listApiKeys, type OffsetPage } from '@svc/accounts';
import type { ServiceClaims } from '@svc/auth';
import { AppError } from '@svc/envelope';
import type { DashboardContext } from '../../context.js';
import { currentUser } from '../auth/service.js';
import { customerCounts } from './repo.js';

/** The signed-in user's own customer: the customer id comes from the account, never from the request. */
export async function customerInfo(ctx: DashboardContext, claims: ServiceClaims) {
  const user = await currentUser(ctx, claims);
  const customer = await findCustomer(ctx.db, user.customerId);
  if (!customer) throw new AppError('UNAUTHORIZED', 'Unauthorized');
  const counts = await customerCounts(ctx.db, customer.id);
  return {
    customer: customerDetailView(customer),
    user: dashboardUserView(user),
    metadata: { dashboard_user_count: counts.users, api_key_count: counts.keys, active_api_key_count: counts.liveKeys },
  };
}

export async function customerApiKeys(ctx: DashboardContext, claims: ServiceClaims, page: OffsetPage) {
  const user = await currentUser(ctx, claims);
  const { rows, total } = await listApiKeys(ctx.db, user.customerId, page);
  return { api_keys: rows.map(apiKeyView), pagination: { ...page, total } };
}
