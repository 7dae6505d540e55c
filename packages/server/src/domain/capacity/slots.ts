// Slot arithmetic of tickets and tours in the museum's zone. Pure functions (no database), so the
// DST rules are unit-testable: slots are counted in wall-clock minutes, day quotas are keyed by
// local midnight, whatever the length of the day.
import { localDateOf, localMinutesOf, startOfLocalDay, zonedInstant } from '../time.ts';

export interface EntryGrid {
  ticketType: string;
  firstEntry: number;
  lastEntry: number;
  entryDuration: number | null;
}

/** Slot starts (instants) of a ticket on a local date; a day ticket has one, at first entry. */
export function ticketSlots(t: EntryGrid, date: string, zone: string): Date[] {
  const out: Date[] = [];
  eachTicketSlot(t, date, zone, (d) => {
    out.push(d);
    return false;
  });
  return out;
}

/**
 * The same slot starts in order, handed to `visit` until it returns true (then true): a caller
 * that needs only the first match (the calendar) converts no more wall times than that.
 */
export function eachTicketSlot(t: EntryGrid, date: string, zone: string, visit: (start: Date) => boolean): boolean {
  if (t.ticketType !== 'time_slot' || !t.entryDuration) return visit(zonedInstant(date, t.firstEntry, zone));
  let previous = NaN;
  for (let m = t.firstEntry; m <= t.lastEntry; m += t.entryDuration) {
    const d = zonedInstant(date, m, zone);
    // A wall time in the spring-forward gap maps onto the next valid instant; skip the duplicate.
    if (d.getTime() === previous) continue;
    previous = d.getTime();
    if (visit(d)) return true;
  }
  return false;
}

/**
 * The canonical slot start of a requested start, or null when it is not on the ticket's grid.
 * Day tickets accept any time of the date and normalise it to first entry.
 */
export function normaliseTicketStart(t: EntryGrid, startAt: Date, zone: string): { date: string; slot: Date } | null {
  const date = localDateOf(startAt, zone);
  if (t.ticketType !== 'time_slot' || !t.entryDuration) return { date, slot: zonedInstant(date, t.firstEntry, zone) };
  const slot = ticketSlots(t, date, zone).find((s) => s.getTime() === startAt.getTime());
  return slot ? { date, slot } : null;
}

/** The key under which a quota counts: the slot start, or local midnight for day quotas. */
export function quotaSlotKey(kind: string, slot: Date, zone: string): Date {
  return kind === 'day' ? startOfLocalDay(localDateOf(slot, zone), zone) : slot;
}

export interface TourGrid {
  windowStart: number;
  windowEnd: number;
  step: number;
}

/** Start instants of a tour on a local date: window start, every step, up to window end. */
export function tourStarts(t: TourGrid, date: string, zone: string): Date[] {
  const out: Date[] = [];
  const step = Math.max(1, t.step);
  for (let m = t.windowStart; m <= t.windowEnd; m += step) out.push(zonedInstant(date, m, zone));
  return out.filter((d, i) => i === 0 || d.getTime() !== out[i - 1]!.getTime());
}

export function isTourStart(t: TourGrid, startAt: Date, zone: string): boolean {
  const date = localDateOf(startAt, zone);
  const m = localMinutesOf(startAt, zone);
  return tourStarts(t, date, zone).some((s) => s.getTime() === startAt.getTime()) && m >= t.windowStart;
}
