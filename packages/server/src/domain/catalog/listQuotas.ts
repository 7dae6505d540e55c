import { and, asc, inArray } from 'drizzle-orm';
import { quotas } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { pageOf, paging, type ListInput, type Page } from './internal.ts';
import { overridesByQuota, ticketIdsByQuota } from './loaders.ts';
import { quotaView, type View } from './views.ts';
import { inScopeSql } from './visibilitySql.ts';

/** Quotas in the caller's museums (users only: capacity is back-office data). */
export async function listQuotas(ctx: Ctx, input: ListInput & { by_museum_ids?: number[] | undefined }): Promise<Page<View>> {
  const pg = paging(ctx, input);
  const where = and(
    inScopeSql(ctx.principal, quotas.museumId),
    input.by_museum_ids?.length ? inArray(quotas.museumId, input.by_museum_ids) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(quotas).where(where).orderBy(asc(quotas.id)).limit(pg.perPage).offset(pg.offset),
    ctx.db.$count(quotas, where),
  ]);
  const ids = rows.map((q) => q.id);
  const [overrides, ticketIds] = await Promise.all([overridesByQuota(ctx.db, ids), ticketIdsByQuota(ctx.db, ids)]);
  return pageOf(rows.map((q) => quotaView(q, { overrides: overrides.get(q.id) ?? [], ticketIds: ticketIds.get(q.id) ?? [] })), total, pg);
}
