// Human-readable money and museum-local dates for printed documents. Money is formatted from
// integer cents with string arithmetic (no floats), always two decimals: the project stores every
// currency in hundredths. Dates go through domain/time.ts, the only module that does zone math.
import { isoInZone, localDateOf, weekdayIndex } from '../../domain/time.ts';

export function formatMoney(cents: number, currency: string): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`money must be integer cents, got ${cents}`);
  const abs = Math.abs(cents);
  const units = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const minor = String(abs % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${units}.${minor} ${currency}`;
}

/** "7", "19", "5.5": a VAT rate without float noise. */
export function formatPct(pct: number): string {
  return `${Number(pct.toFixed(2))}%`;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Monday, 6 July 2026" for the museum-local date of the instant. */
export function formatLocalDate(instant: Date, zone: string): string {
  const date = localDateOf(instant, zone);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[weekdayIndex(date)]}, ${d} ${MONTHS[m - 1]} ${y}`;
}

/** "11:00" local wall time, and the UTC offset in force then ("UTC+02:00"), so DST days are unambiguous. */
export function formatLocalTime(instant: Date, zone: string): { time: string; offset: string } {
  const iso = isoInZone(instant, zone); // 2026-07-06T11:00:00+02:00 or …Z
  const time = iso.slice(11, 16);
  const off = /([+-]\d{2}:\d{2}|Z)$/.exec(iso)?.[1] ?? 'Z';
  return { time, offset: off === 'Z' ? 'UTC' : `UTC${off}` };
}

/** "Monday, 6 July 2026, 11:00 (UTC+02:00)". */
export function formatLocalDateTime(instant: Date, zone: string): string {
  const { time, offset } = formatLocalTime(instant, zone);
  return `${formatLocalDate(instant, zone)}, ${time} (${offset})`;
}
