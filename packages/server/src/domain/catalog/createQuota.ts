import type { Ctx } from '../context.ts';
import { saveQuota, type QuotaInput } from './quotaWrite.ts';
import type { View } from './views.ts';

export function createQuota(ctx: Ctx, input: QuotaInput): Promise<View> {
  return saveQuota(ctx, { ...input, id: undefined });
}
