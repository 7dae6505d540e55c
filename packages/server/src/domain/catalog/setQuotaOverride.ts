import { upsertQuotaOverride } from '../../db/repositories/catalog/quotas.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { Problems } from './checks.ts';
import { renderQuota, writableQuota } from './quotaWrite.ts';
import type { View } from './views.ts';
import { assertStaff, failIfAny } from './writeSupport.ts';

/** Sets (capacity n) or closes (capacity null) one museum-local date of a quota. */
export async function setQuotaOverride(ctx: Ctx, input: { id: number; date: string; capacity: number | null }): Promise<View> {
  assertStaff(ctx);
  const p = new Problems();
  p.date('date', input.date, false);
  p.int('capacity', input.capacity, 0, 1_000_000, true);
  const row = await transaction(ctx.db, async (tx) => {
    const q = await writableQuota(ctx, tx, input.id);
    failIfAny('quota override', p.list);
    await upsertQuotaOverride(tx, q.id, input.date, input.capacity);
    return q;
  });
  return renderQuota(ctx.db, row);
}
