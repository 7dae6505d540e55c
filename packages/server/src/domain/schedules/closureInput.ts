// Checks of a closure before it is written (docs/api-contract.md §13 "Bad input"): every problem is reported
// at once with the field it concerns, and nothing is written.
import type { DbOrTx } from '../../db/client.ts';
import { closuresOfMuseum, idsInMuseum } from '../../db/repositories/schedules/closures.ts';
import { daysBetween, isValidDate } from '../time.ts';
import { atMinutes } from './schedule.ts';

export interface ClosureInput {
  museum_id?: number;
  start_date?: string;
  end_date?: string;
  start_time?: string | null;
  end_time?: string | null;
  ticket_ids?: number[];
  quota_ids?: number[];
  event_ids?: number[];
  tour_ids?: number[];
  reason?: string | null;
  cancel_orders?: boolean;
}

/** A closure checked and normalised: times in minutes, the period as instants. */
export interface ClosureValues {
  museumId: number;
  startDate: string;
  endDate: string;
  startTime: number | null;
  endTime: number | null;
  ticketIds: number[];
  quotaIds: number[];
  eventIds: number[];
  tourIds: number[];
  reason: string | null;
  startsAt: Date;
  endsAt: Date;
}

/** A closure spans at most this many days (a longer one is almost certainly a typo in a year). */
export const MAX_CLOSURE_DAYS = 400;

/** "HH:MM" from 00:00 to 24:00 as minutes; undefined when malformed or out of range. */
export function parseClock(v: string): number | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(v);
  if (!m) return undefined;
  const min = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && min <= 1440 ? min : undefined;
}

export const clock = (min: number | null) => (min === null ? null : `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`);

/** The field problems of `input` for museum `museumId` in `zone`, or the values to write. */
export async function checkClosure(db: DbOrTx, museumId: number, zone: string, input: ClosureInput): Promise<{ problems: string[]; values?: ClosureValues }> {
  const problems: string[] = [];
  const start = input.start_date;
  const end = input.end_date ?? start;
  if (!start || !isValidDate(start)) problems.push('start_date must be a date (YYYY-MM-DD)');
  if (!end || !isValidDate(end)) problems.push('end_date must be a date (YYYY-MM-DD)');
  const time = (name: 'start_time' | 'end_time') => {
    const v = input[name];
    if (v === undefined || v === null) return null;
    const min = parseClock(v);
    if (min === undefined) problems.push(`${name} must be a time from 00:00 to 24:00 (HH:MM)`);
    return min ?? null;
  };
  const startTime = time('start_time');
  const endTime = time('end_time');
  if (problems.length) return { problems };
  if (end! < start!) problems.push('end_date must not be before start_date');
  else if (daysBetween(start!, end!) >= MAX_CLOSURE_DAYS) problems.push(`a closure spans at most ${MAX_CLOSURE_DAYS} days`);
  const startsAt = atMinutes(start!, startTime ?? 0, zone);
  const endsAt = atMinutes(end!, endTime ?? 1440, zone);
  if (problems.length === 0 && endsAt <= startsAt) problems.push('end_time must be after start_time');
  const ids = { ticket_ids: input.ticket_ids ?? [], quota_ids: input.quota_ids ?? [], event_ids: input.event_ids ?? [], tour_ids: input.tour_ids ?? [] };
  for (const [field, list] of Object.entries(ids) as Array<[keyof typeof ids, number[]]>) {
    if (list.length === 0) continue;
    const known = await idsInMuseum(db, field, museumId, list);
    const unknown = [...new Set(list)].filter((id) => !known.has(id));
    if (unknown.length) problems.push(`${field}: ${unknown.join(', ')} not found in museum ${museumId}`);
  }
  const reason = input.reason?.trim() || null;
  if (reason !== null && reason.length > 500) problems.push('reason is at most 500 characters');
  if (problems.length) return { problems };
  const values: ClosureValues = {
    museumId, startDate: start!, endDate: end!, startTime, endTime,
    ticketIds: [...new Set(ids.ticket_ids)], quotaIds: [...new Set(ids.quota_ids)], eventIds: [...new Set(ids.event_ids)], tourIds: [...new Set(ids.tour_ids)],
    reason, startsAt, endsAt,
  };
  const dup = await sameScopeOverlap(db, values);
  if (dup !== null) problems.push(`the period overlaps closure ${dup} with the same scope`);
  return problems.length ? { problems } : { problems, values };
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

/** An existing closure with the same scope whose period overlaps (a duplicate), or null. */
async function sameScopeOverlap(db: DbOrTx, v: ClosureValues): Promise<number | null> {
  const rows = await closuresOfMuseum(db, v.museumId);
  const hit = rows.find(
    (c) => c.startsAt < v.endsAt && c.endsAt > v.startsAt &&
      sameSet(c.ticketIds, v.ticketIds) && sameSet(c.quotaIds, v.quotaIds) && sameSet(c.eventIds, v.eventIds) && sameSet(c.tourIds, v.tourIds),
  );
  return hit?.id ?? null;
}
