import { and, asc, eq, inArray } from 'drizzle-orm';
import { tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { pageOf, paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import { languagesByTour } from './loaders.ts';
import { tourView, type View } from './views.ts';
import { visibleSql } from './visibilitySql.ts';

export interface ListToursInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
}

export async function listTours(ctx: Ctx, input: ListToursInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const where = and(
    visibleSql(ctx.principal, tours),
    input.by_museum_ids?.length ? inArray(tours.museumId, input.by_museum_ids) : undefined,
    input.by_exhibition_ids?.length ? inArray(tours.exhibitionId, input.by_exhibition_ids) : undefined,
    input.by_featured === undefined ? undefined : eq(tours.featured, input.by_featured),
    titleMatches(tours.title, input.q),
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(tours).where(where).orderBy(asc(tours.id)).limit(pg.perPage).offset(pg.offset),
    ctx.db.$count(tours, where),
  ]);
  const langs = await languagesByTour(ctx.db, rows.map((t) => t.id));
  return pageOf(rows.map((t) => tourView(ctx.principal, t, L, { languages: langs.get(t.id) ?? [] })), total, pg);
}
