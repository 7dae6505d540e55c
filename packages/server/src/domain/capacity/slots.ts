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
  if (t.ticketType !== 'time_slot' || !t.entryDuration) return [zonedInstant(date, t.firstEntry, zone)];
  const out: Date[] = [];
  for (let m = t.firstEntry; m <= t.lastEntry; m += t.entryDuration) out.push(zonedInstant(date, m, zone));
  // A wall time in the spring-forward gap maps onto the next valid instant; drop duplicates.
  return out.filter((d, i) => i === 0 || d.getTime() !== out[i - 1]!.getTime());
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
