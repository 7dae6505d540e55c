// Turns the items of an order request into priced, checked line items plus the capacity claims
// they make. Checks here are the ones only orders know (caller may book the product, quantity
// within the product's limits, attendees, prices); the capacity module validates the start time
// against the entry grid, the calendar and what is left.
import type { DbOrTx } from '../../db/client.ts';
import { eventDateById, ticketById, tourById } from '../capacity/catalog.ts';
import type { Claim } from '../capacity/types.ts';
import { isBookableBy, priceFor } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { eventPrice, ticketPrice } from '../pricing/prices.ts';
import { DomainError } from '../errors.ts';
import { checkLineMix, prepareCodeLine } from '../vouchers/orderLines.ts';
import { isValidDate, parseTimestamp, zonedInstant } from '../time.ts';

/** A line of POST /orders: an admission (Ticket, Event, Tour) or a gift card or voucher sold. */
export type OrderItemInput = ProductItemInput | GiftCardItemInput | VoucherItemInput;

export interface GiftCardItemInput {
  type: 'GiftCard';
  attributes: { amount_cents: number; quantity?: number; language?: string; recipient?: string };
}

export interface VoucherItemInput {
  type: 'Voucher';
  attributes: { ticket_id: number; quantity: number; language?: string; recipient?: string };
}

export interface ProductItemInput {
  type: 'Ticket' | 'Event' | 'Tour';
  attributes: {
    id: number;
    quantity: number;
    time?: string;
    start_time?: string;
    language_id?: number;
    reservations?: string[];
    attendees?: Array<{ name?: string; surname?: string }>;
  };
}

export interface PreparedItem {
  type: OrderItemInput['type'];
  museumId: number;
  /** The museum's time zone and the event of an event date: shown in the order answer. */
  zone: string;
  eventId: number | null;
  ticketId: number | null;
  eventDateId: number | null;
  tourId: number | null;
  languageId: number | null;
  quantity: number;
  startAt: Date;
  unitPriceCents: number;
  priceCents: number;
  vatPct: number;
  taxIncluded: boolean;
  attendees: Array<{ name: string; surname: string }> | null;
  reservationTokens: string[];
  /** Null for GiftCard and Voucher lines: they book no visit. */
  claim: Claim | null;
  /** Voucher lines: the ticket each voucher admits to. */
  voucherTicketId: number | null;
  /** GiftCard and Voucher lines: the PDF language and recipient. */
  codeLanguage: string | null;
  codeRecipient: string | null;
}

const noCodes = { voucherTicketId: null, codeLanguage: null, codeRecipient: null };

export { eventPrice, ticketPrice };

const notBookable = (what: string) => new DomainError('NOT_BOOKABLE', `${what} not bookable in the current auth context`);

/** Parses a start time: an ISO timestamp, or for day tickets a plain date (first entry). */
function startTime(text: string | undefined, zone: string, firstEntry?: number): Date | null {
  if (!text) return null;
  if (firstEntry !== undefined && isValidDate(text)) return zonedInstant(text, firstEntry, zone);
  return parseTimestamp(text, zone);
}

function checkAttendees(mode: string, quantity: number, given: ProductItemInput['attributes']['attendees'], at: string, errors: string[]) {
  if (mode === 'none' || (mode === 'optional' && (!given || given.length === 0))) return null;
  const list = given ?? [];
  if (mode === 'required' && list.length !== quantity) {
    errors.push(`${at} needs exactly ${quantity} attendees with name and surname, got ${list.length}`);
    return null;
  }
  if (list.length > quantity) errors.push(`${at} has more attendees than its quantity`);
  list.forEach((a, i) => {
    if (!a.name?.trim()) errors.push(`${at} attendee ${i + 1}: Name can't be blank`);
    if (!a.surname?.trim()) errors.push(`${at} attendee ${i + 1}: Surname can't be blank`);
  });
  return list.map((a) => ({ name: (a.name ?? '').trim(), surname: (a.surname ?? '').trim() }));
}

function range(q: number, min: number, max: number, at: string, errors: string[]) {
  if (q < min) errors.push(`${at} quantity must be at least ${min}`);
  if (q > max) errors.push(`${at} quantity must be at most ${max}`);
}

/**
 * Validates and prices every item; collects field errors of all items before failing. Reads only
 * master data (through the process memo), so it runs before the order's transaction.
 */
export async function prepareItems(db: DbOrTx, ctx: Ctx, items: OrderItemInput[]): Promise<PreparedItem[]> {
  const p = ctx.principal;
  const errors: string[] = [];
  const out: PreparedItem[] = [];
  for (const [i, item] of items.entries()) {
    const at = `items[${i}]`;
    if (item.type === 'GiftCard' || item.type === 'Voucher') {
      const line = await prepareCodeLine(db, ctx, item, at, errors);
      if (line) out.push(line);
      continue;
    }
    const a = item.attributes;
    const tokens = a.reservations ?? [];
    if (item.type === 'Ticket') {
      const t = await ticketById(ctx, db, a.id);
      if (!t) { errors.push(`${at}: ticket ${a.id} not found`); continue; }
      if (!isBookableBy(p, t)) throw notBookable('ticket');
      range(a.quantity, t.minPersons, t.maxPersons, at, errors);
      const start = startTime(a.time ?? a.start_time, t.zone, t.ticketType === 'normal' ? t.firstEntry : undefined);
      if (!start) { errors.push(`${at} time must be an ISO 8601 timestamp`); continue; }
      const attendees = checkAttendees(t.attendees, a.quantity, a.attendees, at, errors);
      const unit = priceFor(p, t);
      const price = ticketPrice(p, t, a.quantity);
      out.push({
        type: 'Ticket', museumId: t.museumId, zone: t.zone, eventId: null, ticketId: t.id, eventDateId: null, tourId: null, languageId: null,
        quantity: a.quantity, startAt: start, unitPriceCents: unit,
        priceCents: price,
        vatPct: t.vatPct, taxIncluded: t.taxIncluded, attendees, reservationTokens: tokens, ...noCodes,
        claim: { kind: 'ticket', ticketId: t.id, startAt: start, quantity: a.quantity },
      });
    } else if (item.type === 'Event') {
      const row = await eventDateById(ctx, db, a.id);
      if (!row) { errors.push(`${at}: event date ${a.id} not found`); continue; }
      const { date: d, event: e } = row;
      if (!d.active || !isBookableBy(p, e)) throw notBookable('event');
      range(a.quantity, 1, d.maxPerRegistration ?? d.seatsMax, at, errors);
      const unit = priceFor(p, e);
      out.push({
        type: 'Event', museumId: e.museumId, zone: row.zone, eventId: e.id, ticketId: null, eventDateId: d.id, tourId: null, languageId: d.languageId,
        quantity: a.quantity, startAt: d.startAt, unitPriceCents: unit, priceCents: eventPrice(p, e, a.quantity),
        vatPct: e.vatPct, taxIncluded: e.taxIncluded, attendees: null, reservationTokens: tokens, ...noCodes,
        claim: { kind: 'event_date', eventDateId: d.id, quantity: a.quantity },
      });
    } else {
      const t = await tourById(ctx, db, a.id);
      if (!t) { errors.push(`${at}: tour ${a.id} not found`); continue; }
      if (!isBookableBy(p, t)) throw notBookable('tour');
      range(a.quantity, t.minPersons, t.maxPersons, at, errors);
      if (tokens.length) errors.push(`${at}: tours cannot be reserved, remove reservations`);
      const start = startTime(a.start_time ?? a.time, t.zone);
      if (!start) errors.push(`${at} start_time must be an ISO 8601 timestamp`);
      if (a.language_id === undefined) errors.push(`${at} language_id is required`);
      if (!start || a.language_id === undefined) continue;
      // Checked here (the capacity module checks it too) because the item row references the
      // language: an unknown id must be a 422, not a foreign-key failure.
      if (!t.languageIds.includes(a.language_id)) throw new DomainError('LANGUAGE_NOT_AVAILABLE', `tour ${t.id} is not offered in language ${a.language_id}`);
      // 'group': one price per booking whatever the head count; 'person': per participant.
      const unit = priceFor(p, t);
      out.push({
        type: 'Tour', museumId: t.museumId, zone: t.zone, eventId: null, ticketId: null, eventDateId: null, tourId: t.id, languageId: a.language_id,
        quantity: a.quantity, startAt: start, unitPriceCents: unit,
        priceCents: t.pricing === 'group' ? unit : unit * a.quantity,
        vatPct: t.vatPct, taxIncluded: t.taxIncluded, attendees: null, reservationTokens: [], ...noCodes,
        claim: { kind: 'tour', tourId: t.id, startAt: start, languageId: a.language_id, participants: a.quantity },
      });
    }
  }
  if (errors.length) throw new DomainError('VALIDATION_FAILED', 'order could not be saved', { errors });
  checkLineMix(out, 0);
  const total = out.reduce((s, x) => s + x.priceCents, 0);
  if (out.some((x) => x.priceCents > 2_147_483_647) || total > 2_147_483_647) {
    throw new DomainError('VALIDATION_FAILED', 'order could not be saved', { errors: ['Total price is too large'] });
  }
  return out;
}
