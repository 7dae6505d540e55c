import { eventsPageQuery, type EventRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, productFilter, resolveLocale, type Page, type ProductListInput } from './internal.ts';
import { eventView, type View } from './views.ts';
import { categoryRef } from './categories.ts';

export type ListEventsInput = ProductListInput;

export async function listEvents(ctx: Ctx, input: ListEventsInput): Promise<Page<View>> {
  return pageOfViews(ctx, eventsPlan(ctx, input));
}

/** The same page, each event as its JSON text, from row fragments where kept (fragments.ts). */
export async function listEventsJson(ctx: Ctx, input: ListEventsInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, eventsPlan(ctx, input), out);
}

function eventsPlan(ctx: Ctx, input: ListEventsInput): PagePlan<EventRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // One statement: the page, the total, each event's languages and category name.
  return {
    query: eventsPageQuery(ctx.db, productFilter(ctx, input), windowOf(pg)),
    view: (e) => eventView(ctx.principal, e, L, { languages: e.languages, category: categoryRef(e), location: e.museumLocation }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
