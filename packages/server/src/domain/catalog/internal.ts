// Shared pieces of the catalogue reads: paging, locale selection, list filters and the caller's
// notion of "bookable". Every list verb uses these so the rules are the same on every endpoint.
import type { ProductFilter } from '../../db/repositories/catalog/lists.ts';
import type { Translated } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
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

/**
 * `bookable` as the caller sees it (docs/api-contract.md §3): users and resellers may book what they can see;
 * anonymous and public callers buy through the shop, so shop products count as bookable for them.
 */
export function bookableFor(p: Principal, product: Sellable): boolean {
  if (p.kind === 'anonymous' || p.access === 'public') return isVisibleTo(p, product);
  return isBookableBy(p, product);
}

export const isUser = (p: Principal) => p.kind === 'account' && p.access === 'user';

/** What GET /events and GET /tours filter by. */
export interface ProductListInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
  by_category_ids?: number[] | undefined;
  by_categories?: string[] | undefined;
  by_language_ids?: number[] | undefined;
}

/** The filters of GET /events and GET /tours, for their page queries. */
export function productFilter(ctx: Ctx, input: ProductListInput): ProductFilter {
  return {
    viewer: ctx.principal,
    museumIds: input.by_museum_ids,
    exhibitionIds: input.by_exhibition_ids,
    featured: input.by_featured,
    categoryIds: input.by_category_ids,
    categoryNames: input.by_categories,
    languageIds: input.by_language_ids,
    q: input.q,
  };
}
