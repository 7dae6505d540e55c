import { ticketsPageQuery, type TicketRow } from '../../db/repositories/catalog/lists.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { isValidDate, localDateOf } from '../time.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, windowOf, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, resolveLocale, type ListInput, type Page } from './internal.ts';
import { ticketView, type View } from './views.ts';

export interface ListTicketsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_ticket_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  /** `annual` matches nothing: no ticket here is an annual ticket (docs/gomus-compatibility.md). */
  by_ticket_type?: 'time_slot' | 'normal' | 'annual' | undefined;
  by_bookable?: boolean | undefined;
  /** go~mus: true lists only tickets without time slots, false only time-slot tickets. */
  by_free_timing?: boolean | undefined;
  valid_at?: string | undefined;
}

/** `valid_at` defaults to today in the instance zone (gomus §2.2). */
export function validAtOf(ctx: Ctx, raw: string | undefined): string {
  if (raw === undefined) return localDateOf(ctx.clock.now(), ctx.config.zone);
  if (!isValidDate(raw)) throw invalid('valid_at must be a valid date (YYYY-MM-DD)');
  return raw;
}

/** Tickets the caller may see that are valid on `valid_at`. */
export async function listTickets(ctx: Ctx, input: ListTicketsInput): Promise<Page<View>> {
  return pageOfViews(ctx, ticketsPlan(ctx, input));
}

/** The same page, each ticket as its JSON text, from row fragments where kept (fragments.ts). */
export async function listTicketsJson(ctx: Ctx, input: ListTicketsInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, ticketsPlan(ctx, input), out);
}

function ticketsPlan(ctx: Ctx, input: ListTicketsInput): PagePlan<TicketRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const validAt = validAtOf(ctx, input.valid_at);
  // Every listed ticket is visible and valid that day, which is what bookable means for the
  // caller (views.ts); so `by_bookable=false` lists nothing.
  const filter = {
    viewer: ctx.principal,
    validAt,
    museumIds: input.by_museum_ids,
    ticketIds: input.by_ticket_ids,
    exhibitionIds: input.by_exhibition_ids,
    ticketType: input.by_ticket_type,
    bookable: input.by_bookable,
    freeTiming: input.by_free_timing,
    q: input.q,
  };
  return {
    query: ticketsPageQuery(ctx.db, filter, windowOf(pg)),
    view: (t) => ticketView(ctx.principal, t, L, { quotaIds: t.quotaIds, validAt }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}|${validAt}`,
    paging: pg,
  };
}
