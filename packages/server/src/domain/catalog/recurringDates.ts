// Which dates a recurrence creates for one event: the rule's occurrences (schedules/recurrence.ts)
// minus those the sellability rule refuses (closed day, closure naming the museum or the event),
// minus those already past and those the event already has. Shared by POST /events/:id/dates
// and the catalogue import, so both skip exactly the same dates.
import type { DbOrTx } from '../../db/client.ts';
import { eventDateStartsAmong } from '../../db/repositories/catalog/eventDates.ts';
import { expandRecurrence, type RecurrenceSpec } from '../schedules/recurrence.ts';
import { closedReason } from '../schedules/rule.ts';
import { scheduleOf } from '../schedules/schedule.ts';

export interface RecurringPlan {
  starts: Date[];
  skipped: Array<{ start: Date; reason: string }>;
}

/** "HH:MM" (00:00–23:59) or minutes after midnight → minutes; null when it is neither. */
export function clockMinutes(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v < 1440 ? v : null;
  const m = typeof v === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(v.trim()) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
  return Number(m[1]) * 60 + Number(m[2]);
}

export async function planRecurringDates(
  db: DbOrTx,
  input: { eventId: number; museumId: number; spec: RecurrenceSpec; duration: number; now: Date; field?: string; keepExisting?: boolean },
): Promise<RecurringPlan | { problems: string[] }> {
  const occurrences = expandRecurrence(input.spec, input.field);
  if (!Array.isArray(occurrences)) return occurrences;
  // Read fresh, not through the process memo: a closure created a moment ago must count here.
  const schedule = await scheduleOf({}, db, input.museumId);
  // The catalogue import updates the dates it already has (keepExisting); the API skips them.
  const existing = occurrences.length && !input.keepExisting
    ? await eventDateStartsAmong(db, input.eventId, occurrences.map((o) => o.start))
    : new Set<number>();
  const plan: RecurringPlan = { starts: [], skipped: [] };
  const target = { kind: 'event' as const, id: input.eventId };
  for (const o of occurrences) {
    const end = new Date(o.start.getTime() + input.duration * 60_000);
    const why =
      o.start < input.now
        ? 'in the past'
        : existing.has(o.start.getTime())
          ? 'the event already has a date at this time'
          : schedule && closedReason(schedule, target, 'event', o.start, end, o.date);
    if (why) plan.skipped.push({ start: o.start, reason: why });
    else plan.starts.push(o.start);
  }
  return plan;
}
