import { and, eq, sql } from 'drizzle-orm';
import { tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, type JsonOut, type PagePlan } from './fragments.ts';
import { bound, given, inIds, shaped } from './pageQuery.ts';
import { paging, resolveLocale, titleMatches, titleShape, type ListInput, type Page } from './internal.ts';
import { tourLanguagesSql, type LanguageRef } from './loaders.ts';
import { tourView, type View } from './views.ts';
import { visibleShape, visibleSql } from './visibilitySql.ts';
import { tourLanguageFilter } from './languageFilter.ts';
import { categoryFilter, categoryNameSql, categoryRef } from './categories.ts';

export interface ListToursInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
  by_category_ids?: number[] | undefined;
  by_categories?: string[] | undefined;
  by_language_ids?: number[] | undefined;
}

export async function listTours(ctx: Ctx, input: ListToursInput): Promise<Page<View>> {
  return pageOfViews(ctx, toursPlan(ctx, input));
}

/** The same page, each tour as its JSON text, from row fragments where kept (fragments.ts). */
export async function listToursJson(ctx: Ctx, input: ListToursInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, toursPlan(ctx, input), out);
}

type TourRow = typeof tours.$inferSelect & { languages: LanguageRef[]; categoryName: string | null };

function toursPlan(ctx: Ctx, input: ListToursInput): PagePlan<TourRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // Rendered once per shape (pageQuery.ts#shaped): the caller's kind and scope, the filters given.
  const filters = given(input.by_museum_ids, input.by_exhibition_ids, input.by_featured, input.by_category_ids, input.by_categories, input.by_language_ids);
  const { where, shape } = shaped(ctx.db, `tours|${visibleShape(ctx.principal)}|${filters}|${titleShape(input.q)}`, () =>
    and(
      visibleSql(ctx.principal, tours),
      input.by_museum_ids?.length ? inIds(tours.museumId, input.by_museum_ids) : undefined,
      input.by_exhibition_ids?.length ? inIds(tours.exhibitionId, input.by_exhibition_ids) : undefined,
      input.by_featured === undefined ? undefined : eq(tours.featured, bound(input.by_featured)),
      categoryFilter(tours.categoryId, input, 'tour'),
      tourLanguageFilter(input.by_language_ids),
      titleMatches(tours.title, input.q),
    ),
  );
  // One statement: the page, the total and related ids (pageQuery.ts).
  return {
    spec: {
      table: tours,
      where,
      extra: sql`${tourLanguagesSql(tours.id)} as "languages", ${categoryNameSql(sql`${tours}."categoryId"`)} as "categoryName"`,
      narrow: sql`${tours.categoryId} as "categoryId"`,
      countApart: !input.q,
      order: sql`${tours.id}`,
      limit: pg.perPage,
      offset: pg.offset,
      shape,
    },
    extraKeys: ['languages', 'categoryName'],
    view: (t) => tourView(ctx.principal, t, L, { languages: t.languages, category: categoryRef(t) }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
