import { exhibitionsPageQuery, type ExhibitionRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { exhibitionView, type View } from './views.ts';

export interface ListExhibitionsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
}

export async function listExhibitions(ctx: Ctx, input: ListExhibitionsInput): Promise<Page<View>> {
  return pageOfViews(ctx, exhibitionsPlan(ctx, input));
}

/** The same page, each exhibition as its JSON text, from row fragments where kept (fragments.ts). */
export async function listExhibitionsJson(ctx: Ctx, input: ListExhibitionsInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, exhibitionsPlan(ctx, input), out);
}

function exhibitionsPlan(ctx: Ctx, input: ListExhibitionsInput): PagePlan<ExhibitionRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const filter = { viewer: ctx.principal, museumIds: input.by_museum_ids, featured: input.by_featured, q: input.q };
  return {
    query: exhibitionsPageQuery(ctx.db, filter, windowOf(pg)),
    // The view reads nothing of the caller; the key names it anyway (the list's scope is the caller's).
    view: (x) => exhibitionView(x, L),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
