// Locale for everything people read: documents, mails, pages. A small, stable API:
//   resolveLocale(customer.locale, config.locales[0])  → a locale we have messages for
//   t(locale, key, params)                             → the message, `{name}` placeholders filled
//   formatDate / formatTime / formatDateTime / formatSlot / formatMoney / formatNumber / formatPct
// Locale is always an argument, never a global (docs/adr/0019-invoices-and-numbering.md).
// Formatting is Intl (full ICU ships with Node); formatters are memoised per locale and zone
// because building one costs far more than using it.
import { CATALOGUES, type MessageKey } from './messages/index.ts';

export type { MessageKey } from './messages/index.ts';
export type Locale = string;

/** Locales with a message catalogue, reference first. */
export const LOCALES: readonly Locale[] = Object.keys(CATALOGUES);
const REFERENCE: Locale = 'en';

/**
 * The first of the candidates we have messages for: exact ("de"), else by language ("de-AT" →
 * "de"); null/unknown candidates are skipped; the reference locale ("en") when none fits.
 */
export function resolveLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const c of candidates) {
    if (!c) continue;
    if (CATALOGUES[c]) return c;
    const lang = c.toLowerCase().split(/[-_]/)[0]!;
    if (CATALOGUES[lang]) return lang;
  }
  return REFERENCE;
}

/** The message for key in locale (falling back to English, then to the key itself). */
export function t(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const msg = CATALOGUES[locale]?.[key] ?? CATALOGUES[REFERENCE]![key] ?? key;
  if (!params) return msg;
  return msg.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

// Plain "en" formats as British English: day before month and a 24-hour clock, what visitors of
// a European museum expect ("Sat, 12 Dec 2026, 10:30–11:00"), not "Sat, Dec 12, 2026, 10:30 AM".
const INTL_TAG: Record<string, string> = { en: 'en-GB' };
const intlTag = (locale: Locale) => INTL_TAG[locale] ?? locale;

const memo = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function dtf(locale: Locale, zone: string, opts: Intl.DateTimeFormatOptions, name: string): Intl.DateTimeFormat {
  const k = `d|${locale}|${zone}|${name}`;
  let f = memo.get(k) as Intl.DateTimeFormat | undefined;
  if (!f) memo.set(k, (f = new Intl.DateTimeFormat(intlTag(locale), { ...opts, timeZone: zone })));
  return f;
}
function nf(locale: Locale, opts: Intl.NumberFormatOptions, name: string): Intl.NumberFormat {
  const k = `n|${locale}|${name}`;
  let f = memo.get(k) as Intl.NumberFormat | undefined;
  if (!f) memo.set(k, (f = new Intl.NumberFormat(intlTag(locale), opts)));
  return f;
}

const DATE_STYLES = {
  /** "Sa., 12. Dez. 2026" / "Sat, 12 Dec 2026" */
  medium: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
  /** "Samstag, 12. Dezember 2026" / "Saturday, 12 December 2026" */
  long: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  /** "12.12.2026" / "12/12/2026" */
  short: { day: '2-digit', month: '2-digit', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

/**
 * A date as people write it. `value` is an instant (shown as the date in `zone`) or a calendar
 * date "YYYY-MM-DD" (shown as is, whatever the zone).
 */
export function formatDate(locale: Locale, value: Date | string, zone: string, style: DateStyle = 'medium'): string {
  if (typeof value === 'string') {
    const d = new Date(`${value}T12:00:00Z`);
    if (Number.isNaN(d.getTime())) throw new Error(`formatDate: not a date: ${value}`);
    return dtf(locale, 'UTC', DATE_STYLES[style], style).format(d);
  }
  return dtf(locale, zone, DATE_STYLES[style], style).format(value);
}

/** "10:30": wall time in zone, 24-hour clock. */
export function formatTime(locale: Locale, instant: Date, zone: string): string {
  return dtf(locale, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'time').format(instant);
}

/** "Sa., 12. Dez. 2026, 10:30" */
export function formatDateTime(locale: Locale, instant: Date, zone: string, style: DateStyle = 'medium'): string {
  return `${formatDate(locale, instant, zone, style)}, ${formatTime(locale, instant, zone)}`;
}

/**
 * A slot: "Sa., 12. Dez. 2026, 10:30–11:00"; without an end "Sa., 12. Dez. 2026, 10:30"; a slot
 * that ends on another day repeats the date: "…, 23:30 – So., 13. Dez. 2026, 00:30".
 */
export function formatSlot(locale: Locale, start: Date, end: Date | null | undefined, zone: string, style: DateStyle = 'medium'): string {
  const from = formatDateTime(locale, start, zone, style);
  if (!end) return from;
  if (formatDate(locale, end, zone, 'short') === formatDate(locale, start, zone, 'short')) {
    return `${from}–${formatTime(locale, end, zone)}`;
  }
  return `${from} – ${formatDateTime(locale, end, zone, style)}`;
}

/** Integer cents as money: "12,50 €" / "€12.50". */
export function formatMoney(locale: Locale, cents: number, currency: string): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`money must be integer cents, got ${cents}`);
  const f = nf(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }, `money|${currency}`);
  // Whole units and cents separately through formatToParts would be exact for any size; for
  // amounts below 10^13 cents the division is exact to the cent after rounding to 2 decimals.
  return f.format(cents / 100);
}

/** "1.234,5" / "1,234.5" (at most `maxFraction` decimals, default 2). */
export function formatNumber(locale: Locale, n: number, maxFraction = 2): string {
  return nf(locale, { maximumFractionDigits: maxFraction }, `num|${maxFraction}`).format(n);
}

/** A percentage given in percent: 19 → "19 %" / "19%", 5.5 → "5,5 %" / "5.5%". */
export function formatPct(locale: Locale, pct: number): string {
  return nf(locale, { style: 'percent', maximumFractionDigits: 2 }, 'pct').format(pct / 100);
}
