// Language of the manage-booking pages: German or English, from ?lang= or Accept-Language
// (German when neither names one), and formatting in the museum's time zone.
import { de, en } from './messages.ts';

export type Locale = 'de' | 'en';
const MESSAGES: Record<Locale, Record<string, string>> = { de, en };

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const table = MESSAGES[locale];
  return (key, vars) => {
    const text = table[key] ?? MESSAGES.en[key] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
  };
}

export function pickLocale(query: unknown, header: string | undefined): Locale {
  if (query === 'de' || query === 'en') return query;
  for (const part of (header ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag === 'de' || tag === 'en') return tag;
  }
  return 'de';
}

export function formatters(locale: Locale) {
  const tag = locale === 'de' ? 'de-DE' : 'en-GB';
  return {
    dateTime: (d: Date | null | undefined, zone: string) => (d ? new Intl.DateTimeFormat(tag, { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(d) : ''),
    time: (d: Date, zone: string) => new Intl.DateTimeFormat(tag, { timeZone: zone, hour: '2-digit', minute: '2-digit' }).format(d),
    money: (cents: number, currency: string) => new Intl.NumberFormat(tag, { style: 'currency', currency }).format(cents / 100),
  };
}
