// Field checks that collect messages (the building blocks of rules.ts). They re-check ranges the
// HTTP schemas already enforce because the catalogue importer calls the verbs without HTTP.
import type { Config } from '../../config.ts';
import { isValidDate } from '../time.ts';

export type TextInput = string | Record<string, string>;
const MAX_INT = 2_147_483_647;
const CHANNELS = ['shop', 'reseller'];

export class Problems {
  readonly list: string[] = [];
  add(msg: string) {
    this.list.push(msg);
  }
  int(name: string, v: unknown, min: number, max = MAX_INT, nullable = false): void {
    if (v === null && nullable) return;
    if (typeof v !== 'number' || !Number.isInteger(v)) this.add(`${name} must be an integer`);
    else if (v < min || v > max) this.add(`${name} must be between ${min} and ${max}`);
  }
  bool(name: string, v: unknown): void {
    if (typeof v !== 'boolean') this.add(`${name} must be true or false`);
  }
  oneOf(name: string, v: unknown, allowed: string[]): void {
    if (typeof v !== 'string' || !allowed.includes(v)) this.add(`${name} must be one of ${allowed.join(', ')}`);
  }
  /** Translatable text: a string (stored under the default locale) or `{locale: text}`. */
  text(config: Config, name: string, v: unknown, required: boolean): void {
    if (v === null || v === undefined) {
      if (required) this.add(`${name} can't be blank`);
      return;
    }
    const entries = typeof v === 'string' ? [[config.locales[0]!, v]] : typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : null;
    if (!entries) return this.add(`${name} must be a string or an object keyed by locale`);
    for (const [k, s] of entries) {
      if (!config.locales.includes(k as string)) this.add(`${name} has unknown locale ${JSON.stringify(k)}`);
      else if (typeof s !== 'string' || s.length > 10_000) this.add(`${name}.${k} must be a string of at most 10000 characters`);
    }
    if (required && !entries.some(([, s]) => typeof s === 'string' && s.trim() !== '')) this.add(`${name} can't be blank`);
  }
  date(name: string, v: unknown, nullable = true): void {
    if (v === null && nullable) return;
    if (typeof v !== 'string' || !isValidDate(v)) this.add(`${name} must be a date (YYYY-MM-DD)`);
  }
  ids(name: string, v: unknown): void {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > MAX_INT)) {
      this.add(`${name} must be a list of ids`);
    }
  }
  channels(sales: unknown, resellers: unknown): void {
    if (!Array.isArray(sales) || sales.some((c) => !CHANNELS.includes(c))) this.add(`sales_channels may only contain ${CHANNELS.join(', ')}`);
    this.ids('reseller_account_ids', resellers);
  }
}

/** Stores text input as `{locale: text}`. */
export function toTranslated(config: Config, v: TextInput): Record<string, string>;
export function toTranslated(config: Config, v: TextInput | null | undefined): Record<string, string> | null;
export function toTranslated(config: Config, v: TextInput | null | undefined): Record<string, string> | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? { [config.locales[0]!]: v } : { ...v };
}

export function validZone(zone: unknown): boolean {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Opening hours `[open, close]` in minutes; close may pass midnight (late openings), up to 48h. */
export function hoursProblem(v: unknown): boolean {
  return !(
    v === null ||
    (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n)) && v[0] >= 0 && v[0] < 1440 && v[1] > v[0] && v[1] <= 2880)
  );
}
