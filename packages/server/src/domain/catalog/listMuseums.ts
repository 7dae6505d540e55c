import { and, sql } from 'drizzle-orm';
import { museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { pageRows } from './pageQuery.ts';
import { pageOf, paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import { museumView, type View } from './views.ts';
import { inScopeSql } from './visibilitySql.ts';

/** Museums inside the caller's scope (museums have no sales channels). */
export async function listMuseums(ctx: Ctx, input: ListInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const where = and(inScopeSql(ctx.principal, museums.id), titleMatches(museums.title, input.q));
  // One statement: the page, the total (pageQuery.ts).
  const { rows, total } = await pageRows<typeof museums.$inferSelect>(ctx.db, {
    table: museums,
    where,
    order: sql`${museums.id}`,
    limit: pg.perPage,
    offset: pg.offset,
  });
  return pageOf(rows.map((m) => museumView(ctx.principal, m, L)), total, pg);
}
