// The shop's languages: German and English message files (messages/*.ts); another language is a
// new file with the same keys and a line here. The visitor's choice (the switch sets a cookie)
// wins over Accept-Language; German is the default.
import * as de from './messages/de.ts';
import * as en from './messages/en.ts';
import { kept } from './kit.ts';

export type ShopLocale = 'de' | 'en';
export const SHOP_LOCALES: readonly ShopLocale[] = ['de', 'en'];
export const SHOP_MESSAGES: Record<ShopLocale, Record<string, string>> = { de: de.messages, en: en.messages };

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export function shopTranslator(locale: ShopLocale): Translate {
  const table = SHOP_MESSAGES[locale];
  return (key, vars) => {
    const text = table[key] ?? SHOP_MESSAGES.en[key] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
  };
}

export function isShopLocale(v: unknown): v is ShopLocale {
  return v === 'de' || v === 'en';
}

/** The visitor's language: ?lang=, then the cookie the switch set, then Accept-Language, then German. */
export function shopLocale(query: unknown, cookie: unknown, header: string | undefined): ShopLocale {
  if (isShopLocale(query)) return query;
  if (isShopLocale(cookie)) return cookie;
  for (const part of (header ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (isShopLocale(tag)) return tag;
  }
  return 'de';
}

// Formatters are made once per language, zone and style and reused: building an Intl formatter
// costs far more than formatting with one, and a page formats every slot, day and price.
const dtf = new Map<string, Intl.DateTimeFormat>();
function fmt(locale: ShopLocale, zone: string, style: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${style}`;
  let f = dtf.get(key);
  if (!f) dtf.set(key, (f = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: zone, ...opts })));
  return f;
}
const nf = new Map<string, Intl.NumberFormat>();
function moneyFormat(tag: string, currency: string): Intl.NumberFormat {
  const key = `${tag}|${currency}`;
  let f = nf.get(key);
  if (!f) nf.set(key, (f = new Intl.NumberFormat(tag, { style: 'currency', currency })));
  return f;
}

function formatters(locale: ShopLocale) {
  const tag = locale === 'de' ? 'de-DE' : 'en-GB';
  return {
    time: kept(4096, (d: Date, zone: string) => `${zone}|${d.getTime()}`, (d: Date, zone: string) => fmt(locale, zone, 'time', { hour: '2-digit', minute: '2-digit' }).format(d)),
    dateTime: (d: Date, zone: string) => fmt(locale, zone, 'dateTime', { dateStyle: 'full', timeStyle: 'short' }).format(d),
    /** A YYYY-MM-DD calendar date, spelled out. */
    day: (iso: string) => fmt(locale, 'UTC', 'day', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${iso}T12:00:00Z`)),
    month: (ym: string) => fmt(locale, 'UTC', 'month', { month: 'long', year: 'numeric' }).format(new Date(`${ym}-15T12:00:00Z`)),
    weekdayShort: (i: number) => fmt(locale, 'UTC', 'weekdayShort', { weekday: 'short' }).format(new Date(Date.UTC(2024, 0, 1 + i))),
    money: (cents: number, currency: string) => moneyFormat(tag, currency).format(cents / 100),
  };
}
export type ShopFormatters = ReturnType<typeof formatters>;
const byLocale = new Map<ShopLocale, ShopFormatters>();

export function shopFormatters(locale: ShopLocale): ShopFormatters {
  let f = byLocale.get(locale);
  if (!f) byLocale.set(locale, (f = formatters(locale)));
  return f;
}
