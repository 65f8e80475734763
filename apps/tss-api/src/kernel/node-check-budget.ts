import type { Response } from 'express';

/*
 * user/check's budget of node checks per email (USER_CHECK_RATE_LIMIT_PER_EMAIL_PER_MINUTE): the
 * limiter in rate-limits.ts marks a call past it, and the route then answers from the database
 * without asking the nodes. A budget, not a limit: a 429 would let anyone who knows an email
 * block its owner's sign-in (the SDK's signIn starts with user/check).
 */

const SPENT = 'userCheckNodeBudgetSpent';

export function markNodeChecksSpent(res: Response): void {
  res.locals[SPENT] = true;
}

/** Whether this user/check may ask the nodes: false once the email's budget for the minute is spent. */
export const mayAskNodes = (res: Response): boolean => res.locals[SPENT] !== true;
