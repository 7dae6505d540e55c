// "Every Saturday and Sunday until 31 March" (or "… 8 times") as the RFC 5545 rule the recurring
// event dates verb expands (recurrence.ts), written by the `rrule` library, so staff never type a
// rule by hand. UNTIL is the museum's wall clock at the end of that day (no "Z"): a date on the
// last day is included whatever the time zone.
import rrulePkg from 'rrule';
import { isValidDate } from '../time.ts';
import { MAX_OCCURRENCES } from './recurrence.ts';

const { RRule } = rrulePkg;

export const RULE_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type RuleWeekday = (typeof RULE_WEEKDAYS)[number];

export interface WeeklyChoices {
  weekdays: string[];
  /** Last date (YYYY-MM-DD), inclusive; or `count`. */
  until?: string;
  count?: number;
}

/** What is wrong with the choices, by field; the form names each in the user's words. */
export type WeeklyProblem = 'weekdays' | 'until' | 'count' | 'end';

export function weeklyRule(c: WeeklyChoices): { rule: string } | { problems: WeeklyProblem[] } {
  const problems: WeeklyProblem[] = [];
  const days = RULE_WEEKDAYS.filter((d) => c.weekdays.includes(d));
  if (days.length === 0 || c.weekdays.some((d) => !(RULE_WEEKDAYS as readonly string[]).includes(d))) problems.push('weekdays');
  if (c.until !== undefined && c.count !== undefined) problems.push('end');
  else if (c.until === undefined && c.count === undefined) problems.push('end');
  else if (c.until !== undefined && !isValidDate(c.until)) problems.push('until');
  else if (c.count !== undefined && (!Number.isInteger(c.count) || c.count < 1 || c.count > MAX_OCCURRENCES)) problems.push('count');
  if (problems.length) return { problems };
  const text = RRule.optionsToString({
    freq: RRule.WEEKLY,
    byweekday: days.map((d) => RRule[d]),
    ...(c.until !== undefined ? { until: new Date(`${c.until}T23:59:59Z`) } : { count: c.count! }),
    // A zone makes the library write UNTIL as wall time (without "Z"); the zone itself is not
    // part of the rule (the verb places every date in the museum's zone).
    tzid: 'UTC',
  });
  return { rule: text.replace(/^RRULE:/, '') };
}
