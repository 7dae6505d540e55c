import { deleteQuotaOverride as deleteOverride } from '../../db/repositories/catalog/quotas.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { Problems } from './checks.ts';
import { writableQuota } from './quotaWrite.ts';
import { assertStaff, failIfAny } from './writeSupport.ts';

/** Removes a date's override (back to the quota's capacity). Unknown date → 404. */
export async function deleteQuotaOverride(ctx: Ctx, input: { id: number; date: string }): Promise<void> {
  assertStaff(ctx);
  await transaction(ctx.db, async (tx) => {
    const q = await writableQuota(ctx, tx, input.id);
    const p = new Problems();
    p.date('date', input.date, false);
    failIfAny('quota override', p.list);
    if (!(await deleteOverride(tx, q.id, input.date))) throw notFound('quota override');
  });
}
