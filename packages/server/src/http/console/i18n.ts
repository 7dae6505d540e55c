// The console's message catalogue and formatting. Each area adds its strings as a module under
// messages/ and lists it in CATALOGUES (so two engineers never edit one file). Dates and times are
// formatted in the museum's time zone, in the user's language.
import * as core from './messages/core.ts';
import * as day from './messages/day.ts';
import * as vouchers from './messages/vouchers.ts';
import * as pictures from './messages/pictures.ts';
import * as orders from './messages/orders.ts';
import * as requests from './messages/requests.ts';
import * as reports from './messages/reports.ts';
import * as schedules from './messages/schedules.ts';
import * as partners from './messages/partners.ts';
import * as payments from './messages/payments.ts';
import * as desk from './messages/desk.ts';
import * as errors from './messages/errors.ts';
import * as shop from './messages/shop.ts';
import * as staff from './messages/staff.ts';
import * as rights from './messages/rights.ts';
import * as audit from './messages/audit.ts';
import * as counter from './messages/counter.ts';
import * as setPassword from './messages/setPassword.ts';

export type Locale = 'de' | 'en';
export const LOCALES: readonly Locale[] = ['de', 'en'];

/** Add a line per messages module: `import * as x from '../../http/console/messages/x.ts'` and `x` here. */
const CATALOGUES: Array<{ de: Record<string, string>; en: Record<string, string> }> = [core, orders, day, requests, reports, schedules, partners, payments, desk, errors, shop, staff, rights, audit, vouchers, counter, pictures, setPassword];

export const MESSAGES: Record<Locale, Record<string, string>> = {
  de: Object.assign({}, ...CATALOGUES.map((c) => c.de)),
  en: Object.assign({}, ...CATALOGUES.map((c) => c.en)),
};

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const table = MESSAGES[locale];
  return (key, vars) => {
    const text = table[key] ?? MESSAGES.en[key] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
  };
}

export function pickLocale(v: unknown, fallback: Locale = 'de'): Locale {
  return v === 'en' || v === 'de' ? v : fallback;
}

/** The first of de/en named in Accept-Language, else German. */
export function localeFromHeader(h: string | undefined): Locale {
  for (const part of (h ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === 'de' || tag === 'en') return tag;
  }
  return 'de';
}

const formats = new Map<string, Intl.DateTimeFormat>();
function fmt(locale: Locale, zone: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${JSON.stringify(opts)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: zone, ...opts })));
  return f;
}

export interface Formatters {
  time(d: Date | null | undefined, zone: string): string;
  date(d: Date | null | undefined, zone: string): string;
  dateTime(d: Date | null | undefined, zone: string): string;
  /** A YYYY-MM-DD calendar date, spelled out (weekday, day, month, year). */
  day(isoDate: string): string;
  /** An instant's date in the zone, spelled out (weekday, day, month, year). */
  longDate(d: Date, zone: string): string;
  money(cents: number, currency: string): string;
}

export function formatters(locale: Locale): Formatters {
  const tag = locale === 'de' ? 'de-DE' : 'en-GB';
  return {
    time: (d, zone) => (d ? fmt(locale, zone, { hour: '2-digit', minute: '2-digit' }).format(d) : ''),
    date: (d, zone) => (d ? fmt(locale, zone, { dateStyle: 'medium' }).format(d) : ''),
    dateTime: (d, zone) => (d ? fmt(locale, zone, { dateStyle: 'medium', timeStyle: 'short' }).format(d) : ''),
    longDate: (d, zone) => fmt(locale, zone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(d),
    day: (iso) => fmt(locale, 'UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${iso}T12:00:00Z`)),
    money: (cents, currency) => new Intl.NumberFormat(tag, { style: 'currency', currency }).format(cents / 100),
  };
}
