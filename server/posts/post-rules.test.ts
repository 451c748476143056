// The approval rule exists once, as a predicate; the SQL used by delivery claims and the
// catch-up sweep is built from it and must agree with it on every approval status.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { Prisma } from '@/server/generated/prisma/client';
import { approvalAllowsDeliverySql, isApprovalBlocking } from './post-rules';
import { APPROVAL_STATUSES } from './posts.schemas';

describe('the approval rule', () => {
  it.each(APPROVAL_STATUSES)('SQL and predicate agree for %s', async (status) => {
    const [row] = await db.$queryRaw<{ allowed: boolean }[]>`SELECT ${approvalAllowsDeliverySql(Prisma.sql`${status}::text`)} AS allowed`;
    expect(row!.allowed).toBe(!isApprovalBlocking(status));
  });

  it('holds back pending and rejected posts only', () => {
    expect(APPROVAL_STATUSES.filter(isApprovalBlocking)).toEqual(['pending', 'rejected']);
  });
});
