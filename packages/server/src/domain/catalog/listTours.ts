import { toursPageQuery, type TourRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, productFilter, resolveLocale, type ListInput, type Page } from './internal.ts';
import { tourView, type View } from './views.ts';
import { categoryRef } from './categories.ts';

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

function toursPlan(ctx: Ctx, input: ListToursInput): PagePlan<TourRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // One statement: the page, the total, each tour's languages and category name.
  return {
    query: toursPageQuery(ctx.db, productFilter(ctx, input), windowOf(pg)),
    view: (t) => tourView(ctx.principal, t, L, { languages: t.languages, category: categoryRef(t) }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
