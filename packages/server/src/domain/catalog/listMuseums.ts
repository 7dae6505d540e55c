import { museumsPageQuery, type MuseumRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { museumView, type View } from './views.ts';

/** Museums inside the caller's scope (museums have no sales channels). */
export async function listMuseums(ctx: Ctx, input: ListInput): Promise<Page<View>> {
  return pageOfViews(ctx, museumsPlan(ctx, input));
}

/** The same page, each museum as its JSON text, from row fragments where kept (fragments.ts). */
export async function listMuseumsJson(ctx: Ctx, input: ListInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, museumsPlan(ctx, input), out);
}

function museumsPlan(ctx: Ctx, input: ListInput): PagePlan<MuseumRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  return {
    query: museumsPageQuery(ctx.db, { viewer: ctx.principal, q: input.q }, windowOf(pg)),
    view: (m) => museumView(ctx.principal, m, L),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
