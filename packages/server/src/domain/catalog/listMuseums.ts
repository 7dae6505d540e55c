import { and, asc } from 'drizzle-orm';
import { museums } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { pageOf, paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import { museumView, type View } from './views.ts';
import { inScopeSql } from './visibilitySql.ts';

/** Museums inside the caller's scope (museums have no sales channels). */
export async function listMuseums(ctx: Ctx, input: ListInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const where = and(inScopeSql(ctx.principal, museums.id), titleMatches(museums.title, input.q));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(museums).where(where).orderBy(asc(museums.id)).limit(pg.perPage).offset(pg.offset),
    ctx.db.$count(museums, where),
  ]);
  return pageOf(rows.map((m) => museumView(ctx.principal, m, L)), total, pg);
}
