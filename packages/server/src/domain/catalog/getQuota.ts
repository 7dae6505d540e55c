import { eq } from 'drizzle-orm';
import { quotas } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { renderQuota } from './quotaWrite.ts';
import type { View } from './views.ts';

export async function getQuota(ctx: Ctx, input: { id: number }): Promise<View> {
  const [q] = await ctx.db.select().from(quotas).where(eq(quotas.id, input.id));
  if (!q || !inMuseumScope(ctx.principal, q.museumId)) throw notFound('quota');
  return renderQuota(ctx.db, q);
}
