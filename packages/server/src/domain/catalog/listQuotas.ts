import { quotasPage } from '../../db/repositories/catalog/quotas.ts';
import { overridesByQuota, ticketIdsByQuota } from '../../db/repositories/catalog/related.ts';
import type { Ctx } from '../context.ts';
import { windowOf } from './fragments.ts';
import { pageOf, paging, type ListInput, type Page } from './internal.ts';
import { quotaView, type View } from './views.ts';

/** Quotas in the caller's museums (users only: capacity is back-office data). */
export async function listQuotas(ctx: Ctx, input: ListInput & { by_museum_ids?: number[] | undefined }): Promise<Page<View>> {
  const pg = paging(ctx, input);
  const { rows, total } = await quotasPage(ctx.db, { viewer: ctx.principal, museumIds: input.by_museum_ids }, windowOf(pg));
  const ids = rows.map((q) => q.id);
  const [overrides, ticketIds] = await Promise.all([overridesByQuota(ctx.db, ids), ticketIdsByQuota(ctx.db, ids)]);
  return pageOf(rows.map((q) => quotaView(q, { overrides: overrides.get(q.id) ?? [], ticketIds: ticketIds.get(q.id) ?? [] })), total, pg);
}
