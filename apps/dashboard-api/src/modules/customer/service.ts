import { customerDetailView, dashboardUserView, type CustomerRepo } from '@svc/accounts';
import type { ServiceClaims } from '@svc/auth';
import type { CustomerDashboardUser } from '@svc/db';
import { AppError } from '@svc/envelope';
import type { CustomerMetadataRepo } from './repo.js';

export interface CustomerServiceDeps {
  repo: CustomerMetadataRepo;
  customers: CustomerRepo;
  /** The live account behind a customer JWT, else 401 (the auth module's currentUser). */
  currentUser: (claims: ServiceClaims) => Promise<CustomerDashboardUser>;
}

/** The signed-in user's own customer: the customer id comes from the account, never from the request. */
export function customerService({ repo, customers, currentUser }: CustomerServiceDeps) {
  return {
    async info(claims: ServiceClaims) {
      const user = await currentUser(claims);
      const customer = await customers.find(user.customerId);
      if (!customer) throw new AppError('UNAUTHORIZED', 'Unauthorized');
      const counts = await repo.counts(customer.id);
      return {
        customer: customerDetailView(customer),
        user: dashboardUserView(user),
        metadata: { dashboard_user_count: counts.users, api_key_count: counts.keys, active_api_key_count: counts.liveKeys },
      };
    },
  };
}

export type CustomerService = ReturnType<typeof customerService>;
