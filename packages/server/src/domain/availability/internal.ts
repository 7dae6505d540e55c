// Shared machinery of availability reads: which products the caller may see, and what is left
// in every slot of a set of tickets over a set of dates, computed from two catalogue queries and
// ONE query of used capacity, whatever the number of slots.
import { ticketsByIds, type TicketRow } from '../capacity/catalog.ts';
import { capacityAt, ticketQuotasOnDates, type QuotaOnDate } from '../capacity/quotas.ts';
import { eachTicketSlot, quotaSlotKey } from '../capacity/slots.ts';
import { slotKey, usedCapacity } from '../capacity/used.ts';
import { isVisibleTo } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { isValidDate, localDateOf, zonedInstant } from '../time.ts';
import { ownLiveReservationIds } from '../reservations/internal.ts';
import { isSellable } from '../schedules/rule.ts';
import { schedulesOf, type Schedule } from '../schedules/schedule.ts';

export type { TicketRow };

/** Tickets among `ids` that the caller may see (unknown and invisible ones are left out). */
export async function visibleTickets(ctx: Ctx, ids: number[] | null): Promise<TicketRow[]> {
  if (ids !== null && ids.length === 0) return [];
  return (await ticketsByIds(ctx, ctx.db, ids)).filter((t) => isVisibleTo(ctx.principal, t));
}

/** A 'YYYY-MM-DD' query parameter, or today in `zone` when absent. */
export function dateParam(ctx: Ctx, value: string | undefined, zone: string, name = 'date'): string {
  if (value === undefined || value === '') return localDateOf(ctx.clock.now(), zone);
  if (!isValidDate(value)) throw invalid(`${name} must be a date (YYYY-MM-DD)`);
  return value;
}

/** The caller's own live holds among `reservations[]`: they count as free for it. */
export const freeHolds = (ctx: Ctx, tokens: string[] | undefined) => ownLiveReservationIds(ctx.db, ctx, tokens ?? []);

export interface SlotLeft {
  start: Date;
  /** What the caller can still book from this slot (minimum over the ticket's quotas). */
  left: number;
}

export interface DayUsage {
  quotas: Map<string, Map<number, QuotaOnDate[]>>;
  used: Map<string, number>;
  /** Opening hours and closures of the tickets' museums (the sellability rule's input). */
  schedules: Map<number, Schedule>;
}

/** Quotas of `tix` on each date and the used capacity of every quota slot in those days. */
export async function usage(ctx: Ctx, now: Date, tix: TicketRow[], dates: string[], free: number[]): Promise<DayUsage> {
  const quotas = await ticketQuotasOnDates(ctx, ctx.db, tix.map((t) => t.id), dates);
  const quotaIds = new Set<number>();
  for (const perTicket of quotas.values()) for (const qs of perTicket.values()) for (const q of qs) quotaIds.add(q.quotaId);
  const sorted = [...dates].sort();
  // A day's slots lie within a day of its UTC midnight in any zone; exact keys sort out the rest.
  const from = new Date(Date.parse(`${sorted[0]}T00:00:00Z`) - 86_400_000);
  const to = new Date(Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`) + 2 * 86_400_000);
  const [used, schedules] = await Promise.all([
    usedCapacity(ctx.db, now, { resource: 'quota', resourceIds: [...quotaIds], from, to, freeReservationIds: free }),
    schedulesOf(ctx, ctx.db, tix.map((t) => t.museumId)),
  ]);
  return { quotas, used, schedules };
}

/** What is left in a quota slot (never below zero; a closed quota has nothing). */
export function quotaLeft(q: QuotaOnDate, key: Date, u: DayUsage): number {
  return Math.max(0, capacityAt(q, key) - (u.used.get(slotKey(q.quotaId, key)) ?? 0));
}

/**
 * Every sellable slot of a ticket on a date with what is left, or [] when the ticket cannot be
 * booked that day at all (outside validity, a quota closed, the museum closed). Past slots have 0 left.
 */
export function ticketDay(t: TicketRow, date: string, now: Date, u: DayUsage): SlotLeft[] {
  const out: SlotLeft[] = [];
  eachSlot(t, date, now, u, (s) => {
    out.push(s);
    return false;
  });
  return out;
}

/**
 * Whether any slot of `ticketDay` has something left: the same walk, stopped at the first such
 * slot (a 31-day calendar asks this per day; most days answer at their first slot).
 */
export function ticketDayHasRoom(t: TicketRow, date: string, now: Date, u: DayUsage): boolean {
  return eachSlot(t, date, now, u, (s) => s.left > 0);
}

/** Visits the sellable slots of the day in order until `visit` returns true (then true). */
function eachSlot(t: TicketRow, date: string, now: Date, u: DayUsage, visit: (s: SlotLeft) => boolean): boolean {
  if ((t.validFrom && date < t.validFrom) || (t.validUntil && date > t.validUntil)) return false;
  const qs = u.quotas.get(date)?.get(t.id) ?? [];
  if (qs.some((q) => q.capacity === null)) return false;
  const isSlot = t.ticketType === 'time_slot' && t.entryDuration;
  const today = localDateOf(now, t.zone);
  // Slots the sellability rule refuses (outside hours, closed) are not offered at all.
  const sched = u.schedules.get(t.museumId);
  const target = { kind: 'ticket' as const, id: t.id, quotaIds: qs.map((q) => q.quotaId) };
  const mode = isSlot ? 'entry' : 'day';
  const endOf = (start: Date) => (isSlot ? new Date(start.getTime() + t.entryDuration! * 60_000) : zonedInstant(date, t.lastEntry, t.zone));
  return eachTicketSlot(t, date, t.zone, (start) => {
    if (!isSellable(sched, target, mode, start, endOf(start), date)) return false;
    const past = isSlot ? start < now : date < today;
    // No quota: unlimited; the most one booking may take is the ticket's max_persons.
    let left = t.maxPersons;
    if (qs.length > 0) {
      left = Infinity;
      for (const q of qs) left = Math.min(left, quotaLeft(q, quotaSlotKey(q.kind, start, t.zone), u));
    }
    return visit({ start, left: past ? 0 : left });
  });
}
