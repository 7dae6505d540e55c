// Checks one claim against the catalogue and turns it into the pools it draws on. Runs before
// the locks are taken (catalogue rows are master data; what is left is re-read under lock).
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid } from '../errors.ts';
import { addDays, localDateOf, startOfLocalDay, zonedInstant } from '../time.ts';
import { assertSellable, type Mode, type Target } from '../schedules/rule.ts';
import { saleOver } from '../schedules/saleWindow.ts';
import { scheduleOf } from '../schedules/schedule.ts';
import { eventDateById, ticketById, tourById, type EventDateRow, type TicketRow, type TourRow } from './catalog.ts';
import { dateLockKey, quotaLockKey, tourLockKey } from './locks.ts';
import { capacityAt, ticketQuotasOn } from './quotas.ts';
import { isTourStart, normaliseTicketStart, quotaSlotKey } from './slots.ts';
import type { Claim, ResolvedClaim } from './types.ts';

const MINUTE = 60_000;
const past = (message: string) => new DomainError('DATE_IN_PAST', message);

type Memo = Pick<Ctx, 'masterData' | 'channel'>;

/**
 * What selling a product at a start asks the sellability rule (docs/adr/0013, "How a product
 * meets the rule"). Built here for a new claim and by recheck.ts for an item placed earlier, so
 * both ask the rule the same question.
 */
export interface Sale {
  museumId: number;
  target: Target;
  mode: Mode;
  start: Date;
  end: Date;
}

const isSlotTicket = (t: TicketRow) => t.ticketType === 'time_slot' && !!t.entryDuration;

/** A time-slot entry is sold for its entry duration; a day ticket for its entry window. */
export function ticketSale(t: TicketRow, quotaIds: number[], at: { date: string; slot: Date }): Sale {
  const slot = isSlotTicket(t);
  return {
    museumId: t.museumId,
    target: { kind: 'ticket', id: t.id, quotaIds },
    mode: slot ? 'entry' : 'day',
    start: at.slot,
    end: slot ? new Date(at.slot.getTime() + t.entryDuration! * MINUTE) : zonedInstant(at.date, t.lastEntry, t.zone),
  };
}

export function eventSale(r: EventDateRow): Sale {
  const start = r.date.startAt;
  return { museumId: r.event.museumId, target: { kind: 'event', id: r.event.id }, mode: 'event', start, end: new Date(start.getTime() + r.date.duration * MINUTE) };
}

export function tourSale(t: TourRow, start: Date): Sale {
  return { museumId: t.museumId, target: { kind: 'tour', id: t.id }, mode: 'run', start, end: new Date(start.getTime() + t.duration * MINUTE) };
}

const assertSaleSellable = async (ctx: Memo, db: DbOrTx, s: Sale) =>
  assertSellable(await scheduleOf(ctx, db, s.museumId), s.target, s.mode, s.start, s.end);

export async function resolveClaim(ctx: Memo, db: DbOrTx, now: Date, claim: Claim): Promise<ResolvedClaim> {
  if (claim.kind === 'ticket') return resolveTicket(ctx, db, now, claim);
  if (claim.kind === 'event_date') return resolveEventDate(ctx, db, now, claim);
  return resolveTour(ctx, db, now, claim);
}

async function resolveTicket(ctx: Memo, db: DbOrTx, now: Date, c: Extract<Claim, { kind: 'ticket' }>): Promise<ResolvedClaim> {
  const ticket = await ticketById(ctx, db, c.ticketId);
  if (!ticket || !ticket.active) throw invalid(`ticket ${c.ticketId} not found`);
  const zone = ticket.zone;
  const at = normaliseTicketStart(ticket, c.startAt, zone);
  if (!at) throw invalid(`start_at is not an entry time of ticket ${ticket.id}`);
  if ((ticket.validFrom && at.date < ticket.validFrom) || (ticket.validUntil && at.date > ticket.validUntil)) {
    throw invalid(`ticket ${ticket.id} is not valid on ${at.date}`);
  }
  const isSlot = isSlotTicket(ticket);
  if (!isSlot && at.date < localDateOf(now, zone)) throw past('date is in the past');
  const qs = (await ticketQuotasOn(ctx, db, [ticket.id], at.date)).get(ticket.id) ?? [];
  if (qs.some((q) => q.capacity === null)) {
    throw new DomainError('NOT_BOOKABLE', `ticket ${ticket.id} is not bookable on ${at.date} (closed)`);
  }
  const sale = ticketSale(ticket, qs.map((q) => q.quotaId), at);
  if (isSlot && saleOver(ctx.channel, sale.start, sale.end, now)) throw past('date is in the past');
  await assertSaleSellable(ctx, db, sale);
  const endAt = isSlot ? sale.end : startOfLocalDay(addDays(at.date, 1), zone);
  return {
    museumId: ticket.museumId,
    startAt: at.slot,
    endAt,
    demands: qs.map((q) => {
      const key = quotaSlotKey(q.kind, at.slot, zone);
      return {
        resource: 'quota' as const,
        resourceId: q.quotaId,
        slotStart: key,
        slotEnd: null,
        quantity: c.quantity,
        capacity: capacityAt(q, key),
        lockKey: quotaLockKey(q.quotaId, key),
      };
    }),
  };
}

async function resolveEventDate(ctx: Memo, db: DbOrTx, now: Date, c: Extract<Claim, { kind: 'event_date' }>): Promise<ResolvedClaim> {
  const r = await eventDateById(ctx, db, c.eventDateId);
  if (!r || !r.date.active || !r.event.active) throw invalid(`date ${c.eventDateId} not found`);
  const d = r.date;
  if (saleOver(ctx.channel, d.startAt, eventSale(r).end, now)) throw past('date is in the past');
  if (d.maxPerRegistration !== null && c.quantity > d.maxPerRegistration) {
    throw invalid(`quantity exceeds the maximum of ${d.maxPerRegistration} per registration`);
  }
  const sale = eventSale(r);
  await assertSaleSellable(ctx, db, sale);
  const endAt = sale.end;
  return {
    museumId: r.event.museumId,
    startAt: d.startAt,
    endAt,
    demands: [
      {
        resource: 'event_date',
        resourceId: d.id,
        slotStart: d.startAt,
        slotEnd: null,
        quantity: c.quantity,
        capacity: d.seatsMax,
        lockKey: dateLockKey(d.id),
      },
    ],
  };
}

async function resolveTour(ctx: Memo, db: DbOrTx, now: Date, c: Extract<Claim, { kind: 'tour' }>): Promise<ResolvedClaim> {
  const tour = await tourById(ctx, db, c.tourId);
  if (!tour || !tour.active) throw invalid(`tour ${c.tourId} not found`);
  const zone = tour.zone;
  if (!tour.languageIds.includes(c.languageId)) throw new DomainError('LANGUAGE_NOT_AVAILABLE', `tour ${tour.id} is not offered in language ${c.languageId}`);
  if (c.participants < tour.minPersons) throw invalid(`tour ${tour.id} needs at least ${tour.minPersons} participants`);
  if (c.participants > tour.maxPersons) {
    throw new DomainError('QUANTITY_ABOVE_CAPACITY', `tour ${tour.id} takes at most ${tour.maxPersons} participants`);
  }
  if (!isTourStart(tour, c.startAt, zone)) throw invalid(`start_at is not a start time of tour ${tour.id}`);
  const sale = tourSale(tour, c.startAt);
  if (saleOver(ctx.channel, sale.start, sale.end, now)) throw past('date is in the past');
  await assertSaleSellable(ctx, db, sale);
  const end = sale.end;
  return {
    museumId: tour.museumId,
    startAt: c.startAt,
    endAt: end,
    demands: [
      {
        resource: 'tour',
        resourceId: tour.id,
        slotStart: c.startAt,
        slotEnd: end,
        quantity: 1,
        capacity: tour.maxConcurrent,
        lockKey: tourLockKey(tour.id, localDateOf(c.startAt, zone)),
      },
    ],
  };
}
