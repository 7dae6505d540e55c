import { toursPageQuery, type TourRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, productFilter, resolveLocale, type Page, type ProductListInput } from './internal.ts';
import { tourView, type View } from './views.ts';
import { categoryRef } from './categories.ts';

export type ListToursInput = ProductListInput;

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
    view: (t) => tourView(ctx.principal, t, L, { languages: t.languages, category: categoryRef(t), location: t.museumLocation }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
