// The go~mus lookup lists (`/countries`, `/states`, `/dispatch_modes`), paged like every list.
// Atrium keeps no lookup tables for these: the countries are the ISO 3166-1 codes customer
// addresses accept (domain/customers/countries.ts) with names from the runtime's ICU data, there
// are no states, and tickets go out one way only. docs/gomus-compatibility.md says which is constant.
import { COUNTRY_CODES } from '../customers/countries.ts';
import type { Ctx } from '../context.ts';
import { pageOf, paging, resolveLocale, type ListInput, type Page } from './internal.ts';

export interface Country { id: number; name: string; code: string }
export interface State { id: number; name: string; country_id: number }
export interface DispatchMode { id: number; name: string }

/**
 * go~mus numbers countries with its own database ids; Atrium numbers them by their place in the
 * alphabetical list of codes (AD = 1), which stays put as long as ISO assigns no new code.
 */
const CODES = [...COUNTRY_CODES].sort();

/** The one language a lookup name is given in: the caller's locale, or the first of `locale[]=`. */
function language(ctx: Ctx, input: ListInput): string {
  const mode = resolveLocale(ctx, input.locale);
  return mode.kind === 'one' ? mode.locale : mode.locales[0]!;
}

function slice<T>(ctx: Ctx, input: ListInput, all: T[]): Page<T> {
  const p = paging(ctx, input);
  return pageOf(all.slice(p.offset, p.offset + p.perPage), all.length, p);
}

export function listCountries(ctx: Ctx, input: ListInput): Page<Country> {
  const names = new Intl.DisplayNames([language(ctx, input), 'en'], { type: 'region', fallback: 'code' });
  return slice(ctx, input, CODES.map((code, i) => ({ id: i + 1, name: names.of(code) ?? code, code })));
}

/** Customer addresses carry a country only, so there is no state to list. */
export function listStates(ctx: Ctx, input: ListInput): Page<State> {
  language(ctx, input);
  return slice(ctx, input, []);
}

/**
 * Tickets reach the buyer as documents sent by e-mail (and the same documents downloaded from the
 * order's links); Atrium neither posts tickets nor keeps them for pick-up. The id is go~mus's id
 * for its e-mail mode, so a client that hard-codes it keeps working.
 */
const DISPATCH_NAMES: Record<string, string> = { de: 'E-Mail', en: 'E-mail' };

export function listDispatchModes(ctx: Ctx, input: ListInput): Page<DispatchMode> {
  const lang = language(ctx, input);
  return slice(ctx, input, [{ id: 1, name: DISPATCH_NAMES[lang] ?? DISPATCH_NAMES.en! }]);
}
