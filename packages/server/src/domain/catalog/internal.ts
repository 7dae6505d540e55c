// Shared pieces of the catalogue reads: paging, locale selection, text search and the caller's
// notion of "bookable". Every list verb uses these so the rules are the same on every endpoint.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Translated } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { bound } from './pageQuery.ts';
import type { Principal } from '../principal.ts';
import { isBookableBy, isVisibleTo, type Sellable } from './visibility.ts';

export interface ListInput {
  page?: number | undefined;
  per_page?: number | undefined;
  q?: string | undefined;
  locale?: string | string[] | undefined;
}

export interface Page<T> {
  items: T[];
  meta: { total_count: number; page: number; per_page: number };
}

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

/** Page size is capped (never an error): 100 with a token, 25 without (docs/api-contract.md §1). */
export function paging(ctx: Ctx, input: ListInput): Paging {
  const cap = ctx.principal.kind === 'account' ? ctx.config.maxPerPageAuthenticated : ctx.config.maxPerPageAnonymous;
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, cap);
  const page = input.page ?? 1;
  return { page, perPage, offset: (page - 1) * perPage };
}

export function pageOf<T>(items: T[], total: number, p: Paging): Page<T> {
  return { items, meta: { total_count: total, page: p.page, per_page: p.perPage } };
}

export type LocaleMode = { kind: 'one'; locale: string; fallback: string } | { kind: 'many'; locales: string[] };

/**
 * `locale=de` picks one language; `locale[]=de&locale[]=en` asks for every translatable field as
 * an object keyed by locale, a token holder's privilege (gomus §1.4): anonymous callers get the
 * first listed locale instead. Unknown locales are a 422 so a typo does not silently fall back.
 */
export function resolveLocale(ctx: Ctx, raw: string | string[] | undefined): LocaleMode {
  const known = ctx.config.locales;
  const fallback = known[0]!;
  if (raw === undefined) return { kind: 'one', locale: fallback, fallback };
  const list = Array.isArray(raw) ? raw : [raw];
  const bad = list.filter((l) => typeof l !== 'string' || !known.includes(l));
  if (list.length === 0 || bad.length > 0) {
    throw invalid(`locale must be one of ${known.join(', ')}`, bad.map((l) => `locale ${JSON.stringify(l)} is not available`));
  }
  if (!Array.isArray(raw) || ctx.principal.kind === 'anonymous') return { kind: 'one', locale: list[0]!, fallback };
  return { kind: 'many', locales: [...new Set(list)] };
}

export type Text = string | Record<string, string | null>;

/** One locale with fallback to the default locale, then to any translation present. */
export function tr(text: Translated | null | undefined, mode: LocaleMode): Text | null {
  if (mode.kind === 'many') {
    if (!text) return null;
    return Object.fromEntries(mode.locales.map((l) => [l, text[l] ?? null]));
  }
  if (!text) return null;
  return text[mode.locale] ?? text[mode.fallback] ?? Object.values(text)[0] ?? null;
}

/** Like `tr` for a required field (title): never null. */
export function trTitle(text: Translated, mode: LocaleMode): Text {
  return tr(text, mode) ?? '';
}

/** Escapes LIKE metacharacters so `q` is a plain substring ("50%" finds "50%", not "50…"). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// Control characters, U+001F among them: the separator of `title_search`.
const CONTROL = /[\u0000-\u001f]/;

/**
 * Case-insensitive substring match on a translated title, in any locale. Parameterised.
 *
 * When `q` has no control character (the 'text' shape), the test is one ILIKE on the table's
 * `title_search`: the translations joined by U+001F, a stored generated column with a trigram
 * index (migration 0032, docs/adr/0039-catalogue-title-search-column.md). `%q%` cannot match
 * across the separator, so it matches that text exactly when it matches one translation.
 * Otherwise each translation is tested on its own (no index).
 */
export function titleMatches(title: AnyPgColumn, q: string | undefined): SQL | undefined {
  if (q === undefined || q === '') return undefined;
  const pattern = likePattern(q);
  if (titleShape(q) === 'exact') return sql`exists (select 1 from jsonb_each_text(${title}) as tr(k, v) where tr.v ilike ${bound(pattern)} escape '\\')`;
  // The matching ids are picked in a sub-select of their own, which PostgreSQL plans apart (an
  // InitPlan): there the trigram index is the obvious path. Written into the page's own WHERE, the
  // cheap test made the generic plan walk a whole channel index in id order and filter every row
  // (2,030 tickets: 1.8 ms against 0.3).
  const id = getTableColumns(title.table).id as AnyPgColumn;
  return sql`${id} = any(array(select "__s"."id" from ${title.table} as "__s" where "__s"."title_search" ilike ${bound(pattern)} escape '\\'))`;
}

/** Which statement `titleMatches` gives for `q`, for a statement's shape key (pageQuery.ts#shaped). */
export function titleShape(q: string | undefined): '' | 'exact' | 'text' {
  if (q === undefined || q === '') return '';
  return CONTROL.test(q) ? 'exact' : 'text';
}

/**
 * `bookable` as the caller sees it (docs/api-contract.md §3): users and resellers may book what they can see;
 * anonymous and public callers buy through the shop, so shop products count as bookable for them.
 */
export function bookableFor(p: Principal, product: Sellable): boolean {
  if (p.kind === 'anonymous' || p.access === 'public') return isVisibleTo(p, product);
  return isBookableBy(p, product);
}

export const isUser = (p: Principal) => p.kind === 'account' && p.access === 'user';

/** Groups rows of a batch load by key. */
export function groupBy<R, K, V>(rows: R[], key: (r: R) => K, value: (r: R) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(value(r));
    else out.set(k, [value(r)]);
  }
  return out;
}
