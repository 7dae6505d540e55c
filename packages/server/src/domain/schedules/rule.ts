// THE sellability rule (docs/api-contract.md §13, docs/adr/0013-sellability-rule.md): a slot or date is
// sellable only inside the museum's opening hours and outside every closure that covers it.
// Availability reads filter with isSellable(); every booking path (reservations, orders, request
// acceptance, box office) reaches it through the capacity module's claim resolution
// (capacity/resolve.ts), which calls assertSellable(). Nothing else decides it.
//
// Cheap by construction: the schedule comes from the process memo (schedule.ts) and each local
// day is turned into instants once (dayPlan, memoised per schedule object), so a check is a few
// number comparisons: availability answers check dozens of slots.
import { DomainError } from '../errors.ts';
import { addDays, localDateOf, startOfLocalDay, weekdayIndex } from '../time.ts';
import { atMinutes, type ClosureSpan, type Hours, type Schedule } from './schedule.ts';

/** What is being sold. A ticket is also covered by closures naming one of its quotas. */
export type Target =
  | { kind: 'ticket'; id: number; quotaIds: readonly number[] }
  | { kind: 'event'; id: number }
  | { kind: 'tour'; id: number };

/**
 * How the sold period [start, end) meets the rule: an `entry` (time-slot ticket, end = start +
 * entry duration) starts within the hours and overlaps no closure; a `day` ticket (start..end =
 * first..last entry) needs an open day and is closed only by a closure taking its whole entry
 * window; a `run` (tour) lies within the hours and overlaps no closure; an `event` date needs an
 * open day (evening events are normal) and overlaps no closure. The SQL race guard
 * (src/db/sql/atrium_closure_hit.sql) repeats the closure half of this: change both together.
 */
export type Mode = 'entry' | 'day' | 'run' | 'event';

export interface DayPlan {
  date: string;
  /** Open [from, to) as epoch ms, or null with the reason. */
  open: { from: number; to: number } | null;
  reason: string;
  /** Closures overlapping the local day. */
  closures: ClosureSpan[];
}

const WEEKDAYS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

/** The hours of a local date: a date exception wins, then a season covering it, then the week. */
export function hoursOn(s: Schedule, date: string): { hours: Hours; reason: string } {
  if (Object.prototype.hasOwnProperty.call(s.exceptions, date)) {
    return { hours: s.exceptions[date] ?? null, reason: `closed on ${date}` };
  }
  const wd = weekdayIndex(date);
  const season = s.seasons.find((x) => x.startDate <= date && date <= x.endDate);
  if (season) return { hours: season.hours[wd] ?? null, reason: `closed on ${WEEKDAYS[wd]} from ${season.startDate} to ${season.endDate}` };
  return { hours: s.weekly[wd] ?? null, reason: `closed on ${WEEKDAYS[wd]}` };
}

const plans = new WeakMap<Schedule, Map<string, DayPlan>>();

export function dayPlan(s: Schedule, date: string): DayPlan {
  let byDate = plans.get(s);
  if (!byDate) plans.set(s, (byDate = new Map()));
  let p = byDate.get(date);
  if (!p) {
    if (byDate.size >= 5_000) byDate.clear();
    const { hours, reason } = hoursOn(s, date);
    const dayFrom = startOfLocalDay(date, s.zone).getTime();
    const dayTo = startOfLocalDay(addDays(date, 1), s.zone).getTime();
    p = {
      date,
      open: hours ? { from: atMinutes(date, hours[0], s.zone).getTime(), to: atMinutes(date, hours[1], s.zone).getTime() } : null,
      reason,
      closures: s.closures.filter((c) => c.from < dayTo && c.to > dayFrom),
    };
    byDate.set(date, p);
  }
  return p;
}

/** A closure naming nothing closes the whole museum. */
export const wholeMuseum = (c: ClosureSpan) => !c.ticketIds.length && !c.quotaIds.length && !c.eventIds.length && !c.tourIds.length;

export function covers(c: ClosureSpan, t: Target): boolean {
  if (wholeMuseum(c)) return true;
  if (t.kind === 'ticket') return c.ticketIds.includes(t.id) || t.quotaIds.some((q) => c.quotaIds.includes(q));
  if (t.kind === 'event') return c.eventIds.includes(t.id);
  return c.tourIds.includes(t.id);
}

const closureReason = (c: ClosureSpan) => c.reason ?? 'closed';

/** Why [start, end) of `target` cannot be sold, or null when it can. */
export function closedReason(s: Schedule, target: Target, mode: Mode, start: Date, end: Date, date = localDateOf(start, s.zone)): string | null {
  const p = dayPlan(s, date);
  if (!p.open) return p.reason;
  const a = start.getTime();
  const b = end.getTime();
  const { from, to } = p.open;
  if (mode === 'entry' && (a < from || a >= to)) return 'outside opening hours';
  if (mode === 'run' && (a < from || b > to)) return 'outside opening hours';
  for (const c of p.closures) if (closureHits(c, target, mode, a, b)) return closureReason(c);
  return null;
}

/** Whether one closure shuts [a, b) (epoch ms) of `target`; see Mode for the day-ticket case. */
export function closureHits(c: ClosureSpan, target: Target, mode: Mode, a: number, b: number): boolean {
  if (!covers(c, target)) return false;
  return mode === 'day' ? c.from <= a && c.to >= b : c.from < b && c.to > a;
}

export function isSellable(s: Schedule | undefined, target: Target, mode: Mode, start: Date, end: Date, date?: string): boolean {
  return !s || closedReason(s, target, mode, start, end, date) === null;
}

export const closed = (reason: string) => new DomainError('CLOSED', `not sellable: ${reason}`);

export function assertSellable(s: Schedule | null | undefined, target: Target, mode: Mode, start: Date, end: Date): void {
  const why = s ? closedReason(s, target, mode, start, end) : null;
  if (why !== null) throw closed(why);
}

/** A museum-local day as the opening-hours answer sees it: hours, or closed with the reason. */
export function openingOn(s: Schedule, date: string): { open: { from: Date; to: Date } | null; reason: string } {
  const p = dayPlan(s, date);
  if (!p.open) return { open: null, reason: p.reason };
  const whole = p.closures.find((c) => wholeMuseum(c) && c.from <= p.open!.from && c.to >= p.open!.to);
  if (whole) return { open: null, reason: closureReason(whole) };
  return { open: { from: new Date(p.open.from), to: new Date(p.open.to) }, reason: '' };
}
