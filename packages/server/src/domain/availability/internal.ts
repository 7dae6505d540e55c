// Shared machinery of availability reads: which products the caller may see, and what is left
// in every slot of a set of tickets over a set of dates, computed from two catalogue queries and
// ONE query of used capacity, whatever the number of slots.
import { ticketsByIds, type TicketRow } from '../capacity/catalog.ts';
import { capacityAt, ticketQuotasOnDates, type QuotaOnDate } from '../capacity/quotas.ts';
import { ticketSale } from '../capacity/resolve.ts';
import { eachTicketSlot, quotaSlotKey } from '../capacity/slots.ts';
import { slotKey, usedCapacity } from '../capacity/used.ts';
import { isVisibleTo } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { isValidDate, localDateOf } from '../time.ts';
import { ownLiveReservationIds } from '../reservations/internal.ts';
import { isSellable } from '../schedules/rule.ts';
import { saleOver, type SaleChannel } from '../schedules/saleWindow.ts';
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
export function ticketDay(t: TicketRow, date: string, now: Date, u: DayUsage, channel?: SaleChannel): SlotLeft[] {
  const slots = slotPlan(t, date, u);
  if (slots.length === 0) return [];
  const past = pastTest(t, date, now, channel);
  return slots.map((s) => ({ start: s.start, left: past(s) ? 0 : left(t, s, u) }));
}

/**
 * Whether any slot of `ticketDay` has something left: the same slots, stopped at the first one
 * with room (a 31-day calendar asks this per day; most days answer at their first slot).
 */
export function ticketDayHasRoom(t: TicketRow, date: string, now: Date, u: DayUsage): boolean {
  const slots = slotPlan(t, date, u);
  if (slots.length === 0) return false;
  const past = pastTest(t, date, now);
  for (const s of slots) if (!past(s) && left(t, s, u) > 0) return true;
  return false;
}

/**
 * A ticket's sellable slots on a date with what each needs from used capacity: the used-capacity
 * key and the capacity of each of its quota slots. Everything in it comes from master data (the
 * ticket, its quotas on the date, the museum's schedule), so with the process memo it is built
 * once per catalogue change and shared by every request; the live part (used capacity, now) is
 * applied per request (ticketDay, ticketDayHasRoom). Without the memo every request builds its own.
 */
interface PlannedSlot {
  start: Date;
  keys: string[];
  caps: number[];
}
interface SlotPlan {
  ticket: TicketRow;
  date: string;
  schedule: Schedule | undefined;
  slots: PlannedSlot[];
}
// Keyed by the memoised quota list of the ticket on the date (one array per ticket and date);
// the entry is used only for the same ticket row and schedule objects, so a reloaded catalogue
// or schedule (new objects) is never answered from an old plan.
const plans = new WeakMap<readonly QuotaOnDate[], SlotPlan>();

function slotPlan(t: TicketRow, date: string, u: DayUsage): PlannedSlot[] {
  const qs = u.quotas.get(date)?.get(t.id);
  const schedule = u.schedules.get(t.museumId);
  const known = qs && plans.get(qs);
  if (known && known.ticket === t && known.date === date && known.schedule === schedule) return known.slots;
  const slots = planSlots(t, date, qs ?? [], schedule);
  if (qs) plans.set(qs, { ticket: t, date, schedule, slots });
  return slots;
}

function planSlots(t: TicketRow, date: string, qs: readonly QuotaOnDate[], sched: Schedule | undefined): PlannedSlot[] {
  if ((t.validFrom && date < t.validFrom) || (t.validUntil && date > t.validUntil)) return [];
  if (qs.some((q) => q.capacity === null)) return [];
  const quotaIds = qs.map((q) => q.quotaId);
  const out: PlannedSlot[] = [];
  eachTicketSlot(t, date, t.zone, (start) => {
    // Slots the sellability rule refuses (outside hours, closed) are not offered at all. The
    // question is the one a booking of the slot asks (ticketSale, capacity/resolve.ts).
    const sale = ticketSale(t, quotaIds, { date, slot: start });
    if (!isSellable(sched, sale.target, sale.mode, sale.start, sale.end, date)) return false;
    const keys = qs.map((q) => quotaSlotKey(q.kind, start, t.zone));
    out.push({ start, keys: keys.map((k, i) => slotKey(qs[i]!.quotaId, k)), caps: keys.map((k, i) => capacityAt(qs[i]!, k)) });
    return false;
  });
  return out;
}

/** A time slot is past once it stops selling (saleWindow.ts); a day ticket's slot, once its date is over. */
function pastTest(t: TicketRow, date: string, now: Date, channel?: SaleChannel): (s: PlannedSlot) => boolean {
  if (t.ticketType === 'time_slot' && t.entryDuration) {
    const entry = t.entryDuration * 60_000;
    return (s) => saleOver(channel, s.start, new Date(s.start.getTime() + entry), now);
  }
  const past = date < localDateOf(now, t.zone);
  return () => past;
}

/** What the caller can still book from a slot: quotaLeft() of each quota, with key and capacity planned. */
function left(t: TicketRow, s: PlannedSlot, u: DayUsage): number {
  // No quota: unlimited; the most one booking may take is the ticket's max_persons.
  if (s.keys.length === 0) return t.maxPersons;
  let n = Infinity;
  for (let i = 0; i < s.keys.length; i++) n = Math.min(n, Math.max(0, s.caps[i]! - (u.used.get(s.keys[i]!) ?? 0)));
  return n;
}

/**
 * The slots of `ticketDay` with the capacity each draws on as well (the smallest of its quotas'
 * capacities; null when no quota limits it), for answers that show how full a slot is.
 */
export function ticketDayDetail(t: TicketRow, date: string, now: Date, u: DayUsage): Array<SlotLeft & { capacity: number | null }> {
  const slots = slotPlan(t, date, u);
  if (slots.length === 0) return [];
  const past = pastTest(t, date, now);
  return slots.map((s) => ({ start: s.start, left: past(s) ? 0 : left(t, s, u), capacity: s.caps.length ? Math.min(...s.caps) : null }));
}
