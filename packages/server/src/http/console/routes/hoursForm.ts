// The opening hours form: per weekday open or closed with two time pickers, and exceptions by
// date (closed, or open with their own times). It reads and writes the stored notation of the
// schedules verb ("10:00-18:00" / "closed", domain/schedules/openingHours.ts); whether two times
// make opening hours is that verb's parseHours, asked per field so a mistake is named at its field.
import { parseHours, WEEKDAY_NAMES, type ScheduleView } from '../../../domain/schedules/openingHours.ts';
import { isValidDate } from '../../../domain/time.ts';
import type { Translate } from '../i18n.ts';
import { field } from './kit.ts';

export interface HoursRow { open: boolean; from: string; to: string; error?: string }
export interface DayRow extends HoursRow { day: string }
export interface ExceptionRow extends HoursRow { date: string }
export interface HoursForm { days: DayRow[]; exceptions: ExceptionRow[]; problems: Array<{ id: string; text: string }> }

/** Empty rows offered for new exceptions below the stored ones. */
const BLANK_ROWS = 3;
const MAX_ROWS = 1_003;
const blank = (): ExceptionRow => ({ date: '', open: false, from: '', to: '' });

function rowOf(stored: string | undefined): HoursRow {
  const [from = '', to = ''] = stored && stored !== 'closed' ? stored.split('-') : [];
  return { open: !!stored && stored !== 'closed', from, to };
}

export function hoursFormOf(s: ScheduleView): HoursForm {
  return {
    days: WEEKDAY_NAMES.map((day) => ({ day, ...rowOf(s.weekly[day]) })),
    exceptions: [...Object.entries(s.exceptions).map(([date, h]) => ({ date, ...rowOf(h) })), ...Array.from({ length: BLANK_ROWS }, blank)],
    problems: [],
  };
}

/** A time picker's value: "10:00" (a browser may add ":00" seconds). */
const time = (v: string) => (/^\d{2}:\d{2}:00$/.test(v) ? v.slice(0, 5) : v);

/** The stored notation of one row, or the row's error (in the user's words). */
function hoursOf(t: Translate, row: HoursRow, name: string): string | { error: string } {
  if (!row.open) return 'closed';
  if (!row.from || !row.to) return { error: t('hours.error.missing', { name }) };
  return parseHours(`${row.from}-${row.to}`) === undefined ? { error: t('hours.error.order', { name }) } : `${row.from}-${row.to}`;
}

export interface ParsedHours {
  form: HoursForm;
  /** Present when the form has no mistakes: the schedules verb's input. */
  input?: { weekly: Record<string, string>; exceptions: Record<string, string> };
}

export function parseHoursForm(t: Translate, body: unknown): ParsedHours {
  const problems: HoursForm['problems'] = [];
  const weekly: Record<string, string> = {};
  const days = WEEKDAY_NAMES.map((day): DayRow => {
    const row: DayRow = { day, open: field(body, `open_${day}`, 1) === '1', from: time(field(body, `from_${day}`, 8)), to: time(field(body, `to_${day}`, 8)) };
    const h = hoursOf(t, row, t(`weekday.${day}`));
    if (typeof h === 'string') weekly[day] = h;
    else problems.push({ id: `from_${day}`, text: (row.error = h.error) });
    return row;
  });
  const exceptions: Record<string, string> = {};
  const rows: ExceptionRow[] = [];
  const indexes = Object.keys((body as Record<string, unknown> | undefined) ?? {})
    .map((k) => /^ex_(\d{1,4})_date$/.exec(k)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
    .slice(0, MAX_ROWS);
  for (const i of indexes) {
    const row: ExceptionRow = { date: field(body, `ex_${i}_date`, 20), open: field(body, `ex_${i}_state`, 10) === 'open', from: time(field(body, `ex_${i}_from`, 8)), to: time(field(body, `ex_${i}_to`, 8)) };
    // A removed row, and an untouched empty one, are left out.
    if (field(body, `ex_${i}_remove`, 1) === '1' || (!row.date && !row.open && !row.from && !row.to)) continue;
    const n = rows.length;
    rows.push(row);
    if (!row.date) {
      problems.push({ id: `ex_${n}_date`, text: (row.error = t('hours.error.nodate', { n: n + 1 })) });
      continue;
    }
    if (!isValidDate(row.date)) {
      problems.push({ id: `ex_${n}_date`, text: (row.error = t('hours.error.date', { date: row.date })) });
      continue;
    }
    if (row.date in exceptions) {
      problems.push({ id: `ex_${n}_date`, text: (row.error = t('hours.error.twice', { date: row.date })) });
      continue;
    }
    const h = hoursOf(t, row, row.date);
    if (typeof h === 'string') exceptions[row.date] = h;
    else problems.push({ id: `ex_${n}_from`, text: (row.error = h.error) });
  }
  const form = { days, exceptions: [...rows, ...Array.from({ length: BLANK_ROWS }, blank)], problems };
  return problems.length ? { form } : { form, input: { weekly, exceptions } };
}
