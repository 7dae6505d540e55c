import { quotaById } from '../../db/repositories/catalog/quotas.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { renderQuota } from './quotaWrite.ts';
import type { View } from './views.ts';

export async function getQuota(ctx: Ctx, input: { id: number }): Promise<View> {
  const q = await quotaById(ctx.db, input.id);
  if (!q || !inMuseumScope(ctx.principal, q.museumId)) throw notFound('quota');
  return renderQuota(ctx.db, q);
}
