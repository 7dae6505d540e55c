// Input shape, defaults and persistence of tickets, shared by createTicket and updateTicket.
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import { insertTicket, setTicketQuotas, updateTicket, type Ticket } from '../../db/repositories/catalog/products.ts';
import type { Ctx } from '../context.ts';
import type { TextInput } from './checks.ts';
import { toTranslated } from './checks.ts';
import { exhibitionRefs, quotaRefs, resellerRefs, ticketRules } from './rules.ts';

export interface TicketInput {
  museum_id?: number;
  title?: TextInput;
  sub_title?: TextInput | null;
  description?: TextInput | null;
  ticket_type?: 'time_slot' | 'normal';
  price_cents?: number;
  reseller_price_cents?: number | null;
  vat_pct?: number;
  tax_included?: boolean;
  discount?: number;
  first_entry?: number;
  last_entry?: number;
  entry_duration?: number | null;
  min_persons?: number;
  max_persons?: number;
  attendees?: 'none' | 'optional' | 'required';
  sales_channels?: string[];
  reseller_account_ids?: number[];
  valid_from?: string | null;
  valid_until?: string | null;
  active?: boolean;
  exhibition_ids?: number[];
  quota_ids?: number[];
}

export const TICKET_DEFAULTS: TicketInput = {
  sub_title: null,
  description: null,
  ticket_type: 'time_slot',
  reseller_price_cents: null,
  vat_pct: 0,
  tax_included: true,
  discount: 0,
  entry_duration: null,
  min_persons: 1,
  max_persons: 100,
  attendees: 'none',
  sales_channels: ['shop', 'reseller'],
  reseller_account_ids: [],
  valid_from: null,
  valid_until: null,
  active: true,
  exhibition_ids: [],
  quota_ids: [],
};

export function ticketAsInput(t: Ticket, quotaIds: number[]): TicketInput {
  return {
    museum_id: t.museumId, title: t.title, sub_title: t.subTitle, description: t.description, ticket_type: t.ticketType as 'normal',
    price_cents: t.priceCents, reseller_price_cents: t.resellerPriceCents, vat_pct: t.vatPct, tax_included: t.taxIncluded,
    discount: t.discount, first_entry: t.firstEntry, last_entry: t.lastEntry, entry_duration: t.entryDuration,
    min_persons: t.minPersons, max_persons: t.maxPersons, attendees: t.attendees as 'none', sales_channels: t.salesChannels,
    reseller_account_ids: t.resellerAccountIds, valid_from: t.validFrom, valid_until: t.validUntil, active: t.active,
    exhibition_ids: t.exhibitionIds, quota_ids: quotaIds,
  };
}

/** Every rule, field and reference, on the ticket as it would be stored. */
export async function ticketProblems(tx: Tx, config: Config, t: TicketInput): Promise<string[]> {
  const problems = ticketRules(config, t as Record<string, unknown>);
  if (problems.length > 0) return problems;
  const uniq = (a: number[]) => [...new Set(a)];
  return [
    ...(await exhibitionRefs(tx, t.museum_id!, uniq(t.exhibition_ids!))),
    ...(await quotaRefs(tx, t.museum_id!, t.ticket_type, uniq(t.quota_ids!))),
    ...(await resellerRefs(tx, uniq(t.reseller_account_ids!))),
  ];
}

/** Inserts (no id) or updates the ticket and replaces its quota links. */
export async function storeTicket(tx: Tx, ctx: Ctx, t: TicketInput, id?: number) {
  const config = ctx.config;
  const values = {
    museumId: t.museum_id!, title: toTranslated(config, t.title!), subTitle: toTranslated(config, t.sub_title),
    description: toTranslated(config, t.description), ticketType: t.ticket_type!, priceCents: t.price_cents!,
    resellerPriceCents: t.reseller_price_cents ?? null, vatPct: t.vat_pct!, taxIncluded: t.tax_included!, discount: t.discount!,
    firstEntry: t.first_entry!, lastEntry: t.last_entry!, entryDuration: t.entry_duration ?? null, minPersons: t.min_persons!,
    maxPersons: t.max_persons!, attendees: t.attendees!, salesChannels: [...new Set(t.sales_channels!)],
    resellerAccountIds: [...new Set(t.reseller_account_ids!)], validFrom: t.valid_from ?? null, validUntil: t.valid_until ?? null,
    active: t.active!, exhibitionIds: [...new Set(t.exhibition_ids!)],
  };
  const row = id === undefined ? await insertTicket(tx, values) : await updateTicket(tx, id, { ...values, updatedAt: ctx.clock.now() });
  const quotaIds = [...new Set(t.quota_ids!)].sort((a, b) => a - b);
  await setTicketQuotas(tx, row.id, quotaIds, id !== undefined);
  return { row, quotaIds };
}
