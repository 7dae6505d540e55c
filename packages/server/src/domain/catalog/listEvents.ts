import { eventsPageQuery, type EventRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, productFilter, resolveLocale, type Page, type ProductListInput } from './internal.ts';
import { eventView, type View } from './views.ts';
import { categoryRef } from './categories.ts';
import { upcomingStartTimes } from './upcomingStartTimes.ts';

export type ListEventsInput = ProductListInput;

export async function listEvents(ctx: Ctx, input: ListEventsInput): Promise<Page<View>> {
  const page = await pageOfViews(ctx, eventsPlan(ctx, input));
  const upcoming = await upcomingStartTimes(ctx, page.items.map((e) => e.id as number));
  return { ...page, items: page.items.map((e) => ({ ...e, upcoming_bookings_start_times: upcoming.get(e.id as number)! })) };
}

/** The same page, each event as its JSON text, from row fragments where kept (fragments.ts). */
export async function listEventsJson(ctx: Ctx, input: ListEventsInput, out: JsonOut): Promise<Page<string>> {
  const page = await pageOfJson(ctx, eventsPlan(ctx, input), out);
  // The upcoming start times change with time and bookings, not with the event's row, so they are
  // not part of the kept row JSON: each item gets them appended, as the schema's last key (the
  // same bytes the plain path's serializer writes).
  const ids = page.items.map((json) => (JSON.parse(json) as { id: number }).id);
  const upcoming = await upcomingStartTimes(ctx, ids);
  return {
    ...page,
    items: page.items.map((json, i) => `${json.slice(0, -1)},"upcoming_bookings_start_times":${JSON.stringify(upcoming.get(ids[i]!)!)}}`),
  };
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
