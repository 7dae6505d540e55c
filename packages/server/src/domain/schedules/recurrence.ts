// Recurring event dates (docs/adr/0014-catalogue-import-merges.md, docs/api-contract.md §13 in docs): an RFC 5545
// RRULE expanded in the museum's wall time. The `rrule` package computes in UTC, so the rule is
// expanded as *floating* time (a wall-clock date and time written as if it were UTC) and each
// occurrence is then placed in the museum's zone with zonedInstant: 14:00 stays 14:00 on both
// sides of a DST change. Pure: no database; skipping closed days is the caller's one call to the
// sellability rule (rule.ts), because it needs the museum's schedule.
import rrulePkg from 'rrule';
import { addDays, localDateOf, localMinutesOf, zonedInstant } from '../time.ts';

const { RRule } = rrulePkg;

/** At most this many occurrences per rule (docs/api-contract.md §13): more is a 422, nothing written. */
export const MAX_OCCURRENCES = 1_000;
/** Occurrences must lie within this many days of the first date: bounds the expansion's work. */
export const HORIZON_DAYS = 3_660;

export interface RecurrenceSpec {
  rrule: string;
  /** Wall time of every occurrence, minutes after local midnight. */
  startMinutes: number;
  /** First local date the rule counts from (its DTSTART). */
  startDate: string;
  zone: string;
}

export interface Occurrence {
  /** Museum-local date of the occurrence. */
  date: string;
  start: Date;
}

const DAY = '(MO|TU|WE|TH|FR|SA|SU)';
const int = (lo: number, hi: number, signed = false) => (v: string) => {
  if (!(signed ? /^[+-]?\d{1,4}$/ : /^\d{1,6}$/).test(v)) return false;
  const n = Math.abs(Number(v));
  return n >= lo && n <= hi;
};
const list = (item: (v: string) => boolean) => (v: string) => v.split(',').every(item);

// Only the parts that make sense for dates at one time of day: the time is `start_time`, so
// BYHOUR/BYMINUTE/BYSECOND and sub-daily frequencies are refused; DTSTART is `start_date`.
const PARTS: Record<string, (v: string) => boolean> = {
  FREQ: (v) => ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(v),
  UNTIL: (v) => /^\d{8}(T\d{6}Z?)?$/.test(v),
  COUNT: int(1, 1_000_000),
  INTERVAL: int(1, 1_000),
  BYDAY: list((v) => new RegExp(`^([+-]?\\d{1,2})?${DAY}$`).test(v)),
  BYMONTHDAY: list(int(1, 31, true)),
  BYMONTH: list(int(1, 12)),
  BYYEARDAY: list(int(1, 366, true)),
  BYWEEKNO: list(int(1, 53, true)),
  BYSETPOS: list(int(1, 366, true)),
  WKST: (v) => new RegExp(`^${DAY}$`).test(v),
};

/** The problems of an RRULE text (field-error messages), or [] when it is one we expand. */
export function rruleProblems(text: unknown, field = 'rrule'): string[] {
  if (typeof text !== 'string' || !text.trim()) return [`${field} must be an RFC 5545 RRULE such as FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270331T000000Z`];
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body.length > 500) return [`${field} is too long (at most 500 characters)`];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of body.split(';')) {
    const [name = '', value, ...rest] = part.split('=');
    const key = name.trim().toUpperCase();
    if (key === 'DTSTART' || key === 'TZID') out.push(`${field}: ${key} is not allowed; give start_date and start_time instead`);
    else if (['BYHOUR', 'BYMINUTE', 'BYSECOND'].includes(key)) out.push(`${field}: ${key} is not allowed; every date starts at start_time`);
    else if (!PARTS[key]) out.push(`${field}: unknown part "${name}"`);
    else if (value === undefined || rest.length || !PARTS[key]!(value.toUpperCase())) {
      out.push(key === 'FREQ' ? `${field}: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY` : `${field}: invalid ${key} value "${value ?? ''}"`);
    } else if (seen.has(key)) out.push(`${field}: ${key} is given twice`);
    seen.add(key);
  }
  if (!seen.has('FREQ') && !out.length) out.push(`${field}: FREQ is required`);
  const freq = /(?:^|;)FREQ=(\w+)/i.exec(body)?.[1]?.toUpperCase();
  // RFC 5545 §3.3.10 limits which parts go with which FREQ; BYSETPOS is kept to MONTHLY and
  // YEARLY, where it picks from a real set (and a rule that can never match stays cheap to find).
  const only: Record<string, string[]> = { BYWEEKNO: ['YEARLY'], BYYEARDAY: ['YEARLY'], BYSETPOS: ['MONTHLY', 'YEARLY'], BYMONTHDAY: ['DAILY', 'MONTHLY', 'YEARLY'] };
  for (const [part, freqs] of Object.entries(only)) {
    if (freq && seen.has(part) && !freqs.includes(freq)) out.push(`${field}: ${part} cannot be used with FREQ=${freq}`);
  }
  if (freq && !['MONTHLY', 'YEARLY'].includes(freq) && /(?:^|;)BYDAY=[^;]*[+-]?\d/i.test(body)) {
    out.push(`${field}: BYDAY with a number (such as -1SU) needs FREQ=MONTHLY or YEARLY`);
  }
  if (seen.has('UNTIL') && seen.has('COUNT')) out.push(`${field}: give UNTIL or COUNT, not both`);
  if (!out.length && !seen.has('UNTIL') && !seen.has('COUNT')) {
    out.push(`${field} has no end (UNTIL or COUNT): it would create more than ${MAX_OCCURRENCES} dates`);
  }
  return out;
}

/** Whether a DAILY rule's month, month-day and weekday filters let any day of the horizon pass. */
function dailyMatches(o: ReturnType<typeof RRule.parseString>, startDate: string): boolean {
  const arr = <T>(v: T | T[] | null | undefined): T[] => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const months = arr(o.bymonth);
  const monthDays = arr(o.bymonthday);
  const weekdays = arr(o.byweekday).map((w) => (typeof w === 'number' ? w : (w as { weekday: number }).weekday));
  const step = o.interval ?? 1;
  const first = new Date(`${startDate}T00:00:00Z`).getTime();
  for (let d = 0; d < HORIZON_DAYS; d += step) {
    const t = new Date(first + d * 86_400_000);
    const len = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
    if (months.length && !months.includes(t.getUTCMonth() + 1)) continue;
    if (monthDays.length && !monthDays.includes(t.getUTCDate()) && !monthDays.includes(t.getUTCDate() - len - 1)) continue;
    if (weekdays.length && !weekdays.includes((t.getUTCDay() + 6) % 7)) continue;
    return true;
  }
  return false;
}

/** A wall-clock date and time as a floating Date (its UTC fields are the wall clock). */
const floating = (date: string, minutes: number) => new Date(`${date}T00:00:00Z`).getTime() + minutes * 60_000;

/**
 * Every occurrence of the rule, in order, as museum-local dates and instants; or the field-error
 * messages when the rule is invalid, has more than MAX_OCCURRENCES occurrences, or reaches
 * beyond the horizon.
 */
export function expandRecurrence(spec: RecurrenceSpec, field = 'rrule'): Occurrence[] | { problems: string[] } {
  const problems = rruleProblems(spec.rrule, field);
  if (problems.length) return { problems };
  const body = spec.rrule.trim().replace(/^RRULE:/i, '').toUpperCase();
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(body);
  } catch (e) {
    return { problems: [`${field}: ${(e as Error).message}`] };
  }
  // UNTIL with Z is an instant (RFC 5545 requires UTC when DTSTART has a zone): turn it into the
  // museum's wall clock so it compares with floating occurrences; without Z it is wall time already.
  if (options.until && /UNTIL=\d{8}T\d{6}Z/.test(body)) {
    const u = options.until;
    options.until = new Date(floating(localDateOf(u, spec.zone), localMinutesOf(u, spec.zone)) + u.getUTCSeconds() * 1000);
  } else if (options.until && /UNTIL=\d{8}(;|$)/.test(body)) {
    // A date alone means up to and including that day (RFC 5545 compares UNTIL inclusively).
    options.until = new Date(options.until.getTime() + 86_399_000);
  }
  const dtstart = new Date(floating(spec.startDate, spec.startMinutes));
  const horizon = new Date(floating(addDays(spec.startDate, HORIZON_DAYS), 0));
  if (options.until && options.until >= horizon) {
    return { problems: [`${field}: UNTIL is more than ${HORIZON_DAYS} days after the first date`] };
  }
  // rrule checks UNTIL only on dates that pass the BY* filters, so a daily rule matching no day
  // would run on to the year 9999 (a minute of CPU): such a rule is found here, day by day.
  if (options.freq === RRule.DAILY && !dailyMatches(options, spec.startDate)) {
    return { problems: [`${field} matches no date within ${HORIZON_DAYS} days`] };
  }
  const rule = new RRule({ ...options, dtstart, until: options.until && options.until < horizon ? options.until : horizon });
  // Stops after one occurrence too many: the expansion's work is bounded whatever the rule says.
  const found = rule.all((_d, i) => i <= MAX_OCCURRENCES);
  if (found.length > MAX_OCCURRENCES) {
    return { problems: [`${field} would create more than ${MAX_OCCURRENCES} dates`] };
  }
  if (options.count && found.length < options.count) {
    return { problems: [`${field}: COUNT=${options.count} reaches more than ${HORIZON_DAYS} days after the first date`] };
  }
  return found.map((d) => {
    const date = d.toISOString().slice(0, 10);
    return { date, start: zonedInstant(date, d.getUTCHours() * 60 + d.getUTCMinutes(), spec.zone) };
  });
}
