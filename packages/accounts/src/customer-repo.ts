import type { Customer, Prisma, PrismaClient } from '@svc/db';
import { AppError } from '@svc/envelope';

/** A client or an open transaction: a repository built on a transaction's client acts inside it. */
export type Tx = PrismaClient | Prisma.TransactionClient;

export function customerRepo(db: Tx) {
  return {
    find(customerId: string): Promise<Customer | null> {
      return db.customer.findUnique({ where: { id: customerId } });
    },
  };
}

export type CustomerRepo = ReturnType<typeof customerRepo>;

/** The customer a request names (admin: by id; dashboard signup: the one to join); 404 when there is none. */
export async function requireCustomer(customers: CustomerRepo, customerId: string): Promise<Customer> {
  const customer = await customers.find(customerId);
  if (!customer) throw new AppError('CUSTOMER_NOT_FOUND', 'Customer not found');
  return customer;
}
