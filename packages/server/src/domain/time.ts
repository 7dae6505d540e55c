// Wall-clock arithmetic in a museum's IANA zone (docs/api-contract.md §1: times with offset in the museum's
// zone, dates in museum-local time, DST days of 23 and 25 hours). Only this module converts
// between local dates/minutes and instants; everything else passes Dates and 'YYYY-MM-DD'.
import { DateTime } from 'luxon';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

// Zone rules do not change while the process runs, so conversions are memoised. Availability
// turns dozens of slots into instants and back per request, and Luxon's Intl-based offset lookup
// was the costliest step on that path (profiled: about half the CPU of /tickets/:id/capacity).
const memo = new Map<string, number>();
function remember(key: string, compute: () => number): number {
  let v = memo.get(key);
  if (v === undefined) {
    if (memo.size >= 200_000) memo.clear();
    v = compute();
    memo.set(key, v);
  }
  return v;
}

/**
 * The same in two levels, a string (a zone) then a number, so the hottest lookups (offsets,
 * formatted instants, wall times of slots: dozens per availability answer) build no string key.
 * Each inner map holds at most `limit` values; the outer one at most 10,000 keys.
 */
function memo2<V>(limit: number): (outer: string, n: number, compute: () => V) => V {
  const outers = new Map<string, Map<number, V>>();
  return (outer, n, compute) => {
    let m = outers.get(outer);
    if (!m) {
      if (outers.size >= 10_000) outers.clear();
      outers.set(outer, (m = new Map()));
    }
    let v = m.get(n);
    if (v === undefined) {
      if (m.size >= limit) m.clear();
      v = compute();
      m.set(n, v);
    }
    return v;
  };
}
const offsets = memo2<number>(100_000);
// Small: slot starts repeat across requests, other instants (order timestamps) mostly do not.
const isoStrings = memo2<string>(20_000);

// Offsets of every zone in use are whole multiples of 15 minutes, and so are the UTC instants of
// their transitions, so the offset is constant within each 15-minute UTC bucket.
const BUCKET_MS = 15 * 60_000;
function offsetMinutes(ms: number, zone: string): number {
  const bucket = Math.floor(ms / BUCKET_MS);
  return offsets(zone, bucket, () => DateTime.fromMillis(bucket * BUCKET_MS, { zone }).offset);
}

/** The instant shifted by the zone's offset, read with UTC getters as local wall time. */
function wall(instant: Date, zone: string): Date {
  return new Date(instant.getTime() + offsetMinutes(instant.getTime(), zone) * 60_000);
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/**
 * The calendar years the service accepts in any date or timestamp (docs/errors.md,
 * VALIDATION_FAILED). Far inside what PostgreSQL stores, so a day's neighbours, a zone's
 * historical offset (LMT +00:53 in year 1) or a 31-day range never step outside it: at the old
 * edges (0001-01-01, 9999-12-31) that arithmetic made PostgreSQL fail with a 500.
 */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;

export function isValidDate(text: string): boolean {
  if (typeof text !== 'string' || !DATE_RE.test(text)) return false;
  // Every availability request validates its date: plain arithmetic instead of Luxon's parser.
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1) return false;
  const t = new Date(Date.UTC(2000, m - 1, d));
  t.setUTCFullYear(y); // Date.UTC maps years 0–99 to 1900–1999
  return t.getUTCDate() === d && t.getUTCMonth() === m - 1;
}

/**
 * The instant of local wall time `minutes` after midnight on `date` in `zone`. Counting is in
 * wall-clock minutes, so 600 is 10:00 on 23- and 25-hour days alike; a wall time that does not
 * exist (spring-forward gap) moves forward by the gap, an ambiguous one takes the earlier instant.
 */
export function zonedInstant(date: string, minutes: number, zone: string): Date {
  return new Date(instants(`${zone}|${date}`, minutes, () => computeZonedInstant(date, minutes, zone)));
}
const instants = memo2<number>(24 * 60);

function computeZonedInstant(date: string, minutes: number, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const dt = DateTime.fromObject(
    { year: y, month: m, day: d, hour: Math.floor(minutes / 60), minute: minutes % 60 },
    { zone },
  );
  if (!dt.isValid) throw new Error(`invalid local time ${date} +${minutes}min in ${zone}`);
  // Luxon resolves an ambiguous wall time (fall-back hour) to the later offset; a visitor meets the
  // first occurrence, so step back when the same wall time also exists 30 or 60 minutes earlier.
  for (const shift of [60, 30]) {
    const earlier: DateTime = dt.minus({ minutes: shift });
    if (earlier.day === dt.day && earlier.hour === dt.hour && earlier.minute === dt.minute) return earlier.toMillis();
  }
  return dt.toMillis();
}

/** Local midnight of `date` in `zone` (the key of day quotas). */
export function startOfLocalDay(date: string, zone: string): Date {
  return new Date(remember(`d|${zone}|${date}`, () => DateTime.fromISO(date, { zone }).startOf('day').toMillis()));
}

export function localDateOf(instant: Date, zone: string): string {
  return wall(instant, zone).toISOString().slice(0, 10);
}

/** Minutes after local midnight (wall clock) of an instant. */
export function localMinutesOf(instant: Date, zone: string): number {
  const w = wall(instant, zone);
  return w.getUTCHours() * 60 + w.getUTCMinutes();
}

const UNIVERSAL = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Z']);

/** ISO 8601 with the zone's offset, milliseconds only when non-zero: "2026-07-06T11:00:00+02:00". */
export function isoInZone(instant: Date, zone: string): string {
  return isoStrings(zone, instant.getTime(), () => formatInZone(instant, zone));
}


function formatInZone(instant: Date, zone: string): string {
  const offset = offsetMinutes(instant.getTime(), zone);
  const local = new Date(instant.getTime() + offset * 60_000).toISOString();
  const body = instant.getUTCMilliseconds() === 0 ? local.slice(0, 19) : local.slice(0, 23);
  if (offset === 0 && UNIVERSAL.has(zone)) return `${body}Z`;
  return `${body}${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** Monday = 0 … Sunday = 6 of a 'YYYY-MM-DD' date. */
// Calendar-date arithmetic on 'YYYY-MM-DD' in plain UTC milliseconds: a calendar answer adds
// days 31 times per request, and Luxon's parse-plus-format is costly on that path. Dates are the
// validated years 1900–2999 (isValidDate).
const DAY_MS = 86_400_000;
function utcDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}
function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const plain = (date: string) => date.length === 10 && DATE_RE.test(date);

export function weekdayIndex(date: string): number {
  if (!plain(date)) return DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1;
  return (new Date(utcDay(date)).getUTCDay() + 6) % 7;
}

export function addDays(date: string, days: number): string {
  if (!plain(date)) return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
  return isoDay(utcDay(date) + days * DAY_MS);
}

/** Days from `a` to `b` (b - a). */
export function daysBetween(a: string, b: string): number {
  if (!plain(a) || !plain(b)) return Math.round(DateTime.fromISO(b, { zone: 'UTC' }).diff(DateTime.fromISO(a, { zone: 'UTC' }), 'days').days);
  return Math.round((utcDay(b) - utcDay(a)) / DAY_MS);
}

// The form clients send almost always ("2026-11-23T09:00:00+01:00", "…Z"), parsed without
// Luxon: every order and reservation parses its times, and Luxon's general ISO parser is a
// noticeable part of an order's CPU. Anything else (no offset, week dates, 24:00, long fractions) goes to Luxon; a
// unit test checks both agree.
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:[zZ]|([+-])(\d{2}):?(\d{2}))$/;

/** The instant of an ISO date-time with Z or an offset; null if invalid; undefined for other forms. */
function withOffset(text: string): Date | null | undefined {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return undefined;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const [y, mo, d, h, mi, sec, oh, om] = [n(1), n(2), n(3), n(4), n(5), n(6), n(9), n(10)];
  if (oh * 60 + om > MAX_OFFSET_MIN || om > 59) return null;
  if (h > 23) return undefined; // 24:00: Luxon decides
  if (mo < 1 || mo > 12 || d < 1 || mi > 59 || sec > 59) return null;
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  const local = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  if (new Date(local).getUTCDate() !== d || y < 1000) return y < 1000 ? undefined : null; // 2026-02-30
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  return new Date(local - offset * 60_000);
}

/**
 * Parses a client timestamp. With an offset or Z it is that instant; without one it is read as
 * wall time in `zone`. Returns null when it is not a valid ISO 8601 date-time.
 */
export function parseTimestamp(text: string, zone: string): Date | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  let out = withOffset(text);
  if (out === undefined) {
    const hasOffset = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text);
    const dt = DateTime.fromISO(text, hasOffset ? { setZone: true } : { zone });
    // Luxon reads any two-digit offset ("+25:00"); no zone on earth is beyond ±14:00.
    out = dt.isValid && /T|\s/.test(text) && Math.abs(dt.offset) <= MAX_OFFSET_MIN ? dt.toJSDate() : null;
  }
  // Instants in the supported years (UTC) only: Luxon also reads extended years
  // ("+275760-09-13T00:00:00Z"), and toISOString() of those ("+275760-…") is nothing PostgreSQL
  // reads back (the fuzzer found the 500); dates at the years' edges failed in arithmetic.
  return out && out.getTime() >= FIRST_INSTANT && out.getTime() < END_INSTANT ? out : null;
}
const FIRST_INSTANT = Date.UTC(MIN_YEAR, 0, 1);
const END_INSTANT = Date.UTC(MAX_YEAR + 1, 0, 1);
/** Real UTC offsets range from -12:00 to +14:00. */
const MAX_OFFSET_MIN = 14 * 60;
