// POST /events/:id/dates with a `recurrence` (staff): every date of an RFC 5545 rule in one
// transaction, in the museum's wall time, skipping what the sellability rule refuses. An invalid
// rule, or one with more than 1,000 dates, is a 422 that writes nothing.
import type { DbOrTx } from '../../db/client.ts';
import { eventWithZone, insertEventDates } from '../../db/repositories/catalog/eventDates.ts';
import { languageById } from '../../db/repositories/catalog/records.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { isoInZone, isValidDate, localDateOf } from '../time.ts';
import { clockMinutes, planRecurringDates } from './recurringDates.ts';
import { eventDateRules, languageRefs } from './rules.ts';
import { eventDateView, type View } from './views.ts';
import { assertStaff, failIfAny, writeView } from './writeSupport.ts';
import { categoryOf } from './categories.ts';

export interface RecurrenceInput {
  rrule?: string;
  start_date?: string;
  start_time?: string | number;
  duration?: number;
  seats?: number;
}

export interface RecurringDatesInput {
  event_id: number;
  recurrence: RecurrenceInput;
  /** Fields every created date gets (as on a single date). */
  seats_min?: number;
  seats_max?: number;
  duration?: number;
  max_per_registration?: number | null;
  language_id?: number | null;
  active?: boolean;
  start_time?: string;
}

export interface RecurringDatesResult {
  dates: View[];
  skipped: Array<{ start_time: string; reason: string }>;
}

/**
 * The checked input and the dates a recurrence would create (and skip), without writing: shared
 * by the verb below and the console's preview, so both apply the same checks. `lock` takes the
 * event's row lock (two recurrences posted at once cannot both create the same dates).
 */
export async function planRecurrence(ctx: Ctx, tx: DbOrTx, input: RecurringDatesInput, lock: boolean) {
  const r = input.recurrence;
  const now = ctx.clock.now();
  const found = await eventWithZone(tx, input.event_id, lock);
  if (!found || !inMuseumScope(ctx.principal, found.event.museumId)) throw notFound('event');
  const problems: string[] = [];
  if (input.start_time !== undefined) problems.push('start_time cannot be given with recurrence: use recurrence.start_time');
  const minutes = clockMinutes(r.start_time);
  if (minutes === null) problems.push('recurrence.start_time must be a time of day such as "14:00"');
  const startDate = r.start_date ?? localDateOf(now, found.zone);
  if (!isValidDate(startDate)) problems.push('recurrence.start_date must be a date (YYYY-MM-DD)');
  const d = {
    start_time: `${isValidDate(startDate) ? startDate : '2000-01-01'}T00:00`,
    duration: r.duration ?? input.duration ?? 60,
    seats_min: input.seats_min ?? 1,
    seats_max: r.seats ?? input.seats_max,
    max_per_registration: input.max_per_registration ?? null,
    language_id: input.language_id ?? null,
    active: input.active ?? true,
  };
  if (d.seats_max === undefined) problems.push('recurrence.seats is required (the seats of every date)');
  problems.push(...eventDateRules(found.zone, { ...d, seats_max: d.seats_max ?? 0 }).map((m) => m.replace(/^seats_max\b/, 'recurrence.seats').replace(/^duration\b/, 'recurrence.duration')));
  if (d.language_id) problems.push(...(await languageRefs(tx, [d.language_id])));
  failIfAny('dates', problems);
  const plan = await planRecurringDates(tx, {
    eventId: found.event.id,
    museumId: found.event.museumId,
    spec: { rrule: r.rrule ?? '', startMinutes: minutes!, startDate, zone: found.zone },
    duration: d.duration,
    now,
    field: 'recurrence.rrule',
  });
  if (!('starts' in plan)) failIfAny('dates', plan.problems);
  const { starts, skipped } = plan as Exclude<typeof plan, { problems: string[] }>;
  return { found, d: { ...d, seats_max: d.seats_max! }, starts, skipped };
}

export async function createRecurringEventDates(ctx: Ctx, input: RecurringDatesInput): Promise<RecurringDatesResult> {
  assertStaff(ctx);
  const now = ctx.clock.now();
  const { rows, skipped, event, zone } = await transaction(ctx.db, async (tx) => {
    const { found, d, starts, skipped } = await planRecurrence(ctx, tx, input, true);
    const rows = await insertEventDates(
      tx,
      starts.map((startAt) => ({
        eventId: found.event.id, startAt, duration: d.duration, seatsMin: d.seats_min, seatsMax: d.seats_max,
        maxPerRegistration: d.max_per_registration, languageId: d.language_id, active: d.active,
      })),
    );
    return { rows, skipped, event: found.event, zone: found.zone };
  });
  const language = input.language_id ? await languageById(ctx.db, input.language_id) : undefined;
  const { L } = writeView(ctx);
  const category = await categoryOf(ctx.db, event.categoryId);
  return {
    dates: rows.map((row) => eventDateView(ctx.principal, row, event, L, { zone, booked: 0, language: language ?? null, category, now })),
    skipped: skipped.map((s) => ({ start_time: isoInZone(s.start, zone), reason: s.reason })),
  };
}
