import { and, eq, isNull, lte, gte, or, sql, not, type SQL } from 'drizzle-orm';
import { tickets } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { isValidDate, localDateOf } from '../time.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, type JsonOut, type PagePlan } from './fragments.ts';
import { paging, resolveLocale, titleMatches, titleShape, type ListInput, type Page } from './internal.ts';
import { quotaIdsByPage, quotaIdsSql } from './loaders.ts';
import { bound, given, inIds, shaped } from './pageQuery.ts';
import { ticketView, type View } from './views.ts';
import { visibleShape, visibleSql } from './visibilitySql.ts';

export interface ListTicketsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_ticket_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  /** `annual` matches nothing: no ticket here is an annual ticket (docs/gomus-compatibility.md). */
  by_ticket_type?: 'time_slot' | 'normal' | 'annual' | undefined;
  by_bookable?: boolean | undefined;
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

type TicketRow = typeof tickets.$inferSelect & { quotaIds: number[] };

function ticketsPlan(ctx: Ctx, input: ListTicketsInput): PagePlan<TicketRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const validAt = validAtOf(ctx, input.valid_at);
  // The statement's text depends on the caller's kind and scope and on which filters are given
  // (their values are bound by name): rendered once per such shape (pageQuery.ts#shaped).
  // `by_bookable`'s text depends on its value (the rule or its negation).
  const filters = given(input.by_museum_ids, input.by_ticket_ids, input.by_exhibition_ids, input.by_ticket_type || undefined);
  const key = `tickets|${visibleShape(ctx.principal)}|${filters}|${input.by_bookable}|${titleShape(input.q)}`;
  const { where, shape } = shaped(ctx.db, key, () => ticketsWhere(ctx, input, validAt));
  // One statement: the page, the total and each ticket's quota ids (pageQuery.ts).
  return {
    spec: {
      table: tickets,
      where,
      extra: sql`${quotaIdsSql(tickets.id)} as "quotaIds"`,
      countApart: !input.q,
      order: sql`${tickets.id}`,
      limit: pg.perPage,
      offset: pg.offset,
      shape,
    },
    extraKeys: ['quotaIds'],
    groupedExtra: quotaIdsByPage,
    view: (t) => ticketView(ctx.principal, t, L, { quotaIds: t.quotaIds, validAt }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}|${validAt}`,
    paging: pg,
  };
}

function ticketsWhere(ctx: Ctx, input: ListTicketsInput, validAt: string): SQL | undefined {
  const visible = visibleSql(ctx.principal, tickets);
  const at = bound(validAt);
  return and(
    visible,
    or(isNull(tickets.validFrom), lte(tickets.validFrom, at)),
    or(isNull(tickets.validUntil), gte(tickets.validUntil, at)),
    input.by_museum_ids?.length ? inIds(tickets.museumId, input.by_museum_ids) : undefined,
    input.by_ticket_ids?.length ? inIds(tickets.id, input.by_ticket_ids) : undefined,
    input.by_exhibition_ids?.length
      ? sql`${tickets.exhibitionIds} && ${bound(input.by_exhibition_ids)}::int[]`
      : undefined,
    input.by_ticket_type ? eq(tickets.ticketType, bound(input.by_ticket_type)) : undefined,
    // Every listed ticket is visible and valid that day, which is what bookable means for the
    // caller (views.ts); so `by_bookable=false` lists nothing. Kept as SQL so a later, narrower
    // notion of bookable only has to change here and in views.ts.
    input.by_bookable === undefined ? undefined : input.by_bookable ? visible : not(visible),
    titleMatches(tickets.title, input.q),
  );
}
