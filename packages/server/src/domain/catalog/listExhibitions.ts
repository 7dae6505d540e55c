import { and, eq, sql } from 'drizzle-orm';
import { exhibitions } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { inIds, pageRows } from './pageQuery.ts';
import { pageOf, paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import { exhibitionView, type View } from './views.ts';
import { inScopeSql } from './visibilitySql.ts';

export interface ListExhibitionsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
}

export async function listExhibitions(ctx: Ctx, input: ListExhibitionsInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const where = and(
    inScopeSql(ctx.principal, exhibitions.museumId),
    input.by_museum_ids?.length ? inIds(exhibitions.museumId, input.by_museum_ids) : undefined,
    input.by_featured === undefined ? undefined : eq(exhibitions.featured, input.by_featured),
    titleMatches(exhibitions.title, input.q),
  );
  // One statement: the page, the total (pageQuery.ts).
  const { rows, total } = await pageRows<typeof exhibitions.$inferSelect>(ctx.db, {
    table: exhibitions,
    where,
    order: sql`${exhibitions.id}`,
    limit: pg.perPage,
    offset: pg.offset,
  });
  return pageOf(rows.map((x) => exhibitionView(x, L)), total, pg);
}
