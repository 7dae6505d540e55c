// A recurring event date in a catalogue file (`recurrence: {rrule, start_date, start_time}`): the
// rule is checked and expanded here, without the database, so an invalid rule or one with more
// than 1,000 dates is a positioned error before anything is written. The dates themselves are
// written by dates.ts, which skips closed days through the sellability rule.
import { expandRecurrence, rruleProblems } from '../schedules/recurrence.ts';
import { checkDate, parseClock, type Issues } from './plan.ts';
import type { EventDateDoc } from './schema.ts';
import type { Path } from './source.ts';

/** A date entry's `recurrence`: the rule is expanded here once, so a bad or too large one is a positioned error. */
export function checkRecurrence(issues: Issues, at: Path, d: EventDateDoc, zone: string, today: string) {
  const r = d.recurrence!;
  if (d.start_at !== undefined) issues.add([...at.slice(0, -1), 'start_at'], 'give start_at or recurrence, not both');
  if (d.key !== undefined) issues.add([...at.slice(0, -1), 'key'], 'a recurrence has no key: each of its dates is keyed by its start');
  const startMinutes = parseClock(r.start_time);
  if (startMinutes === null) issues.add([...at, 'start_time'], `${JSON.stringify(r.start_time)} is not a time of day: use "HH:MM"`);
  const startDate = checkDate(issues.at(at), ['start_date'], r.start_date);
  if (startMinutes === null || (r.start_date !== undefined && !startDate)) {
    for (const p of rruleProblems(r.rrule)) issues.add([...at, 'rrule'], p.replace(/^rrule:? ?/, ''));
    return undefined;
  }
  const found = expandRecurrence({ rrule: r.rrule, startMinutes, startDate: startDate ?? today, zone });
  if (!Array.isArray(found)) {
    for (const p of found.problems) issues.add([...at, 'rrule'], p.replace(/^rrule:? ?/, ''));
    return undefined;
  }
  return { rrule: r.rrule, startDate, startMinutes };
}
