import type { Ctx } from '../context.ts';
import { saveQuota, type QuotaInput } from './quotaWrite.ts';
import type { View } from './views.ts';

/** Partial update of name, kind and capacity (`museum_id` cannot change). */
export function updateQuota(ctx: Ctx, input: Omit<QuotaInput, 'museum_id'> & { id: number }): Promise<View> {
  return saveQuota(ctx, input);
}
