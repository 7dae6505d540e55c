import { and, eq } from 'drizzle-orm';
import { quotaOverrides } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { Problems } from './checks.ts';
import { writableQuota } from './quotaWrite.ts';
import { assertStaff, failIfAny } from './writeSupport.ts';

/** Removes a date's override (back to the quota's capacity). Unknown date → 404. */
export async function deleteQuotaOverride(ctx: Ctx, input: { id: number; date: string }): Promise<void> {
  assertStaff(ctx);
  await ctx.db.transaction(async (tx) => {
    const q = await writableQuota(ctx, tx, input.id);
    const p = new Problems();
    p.date('date', input.date, false);
    failIfAny('quota override', p.list);
    const gone = await tx.delete(quotaOverrides).where(and(eq(quotaOverrides.quotaId, q.id), eq(quotaOverrides.date, input.date))).returning();
    if (gone.length === 0) throw notFound('quota override');
  });
}
