// The date range and museum scope every report runs on. Dates are museum-local calendar days
// ('YYYY-MM-DD', both ends included); each museum's own zone decides which day an instant
// belongs to. The range is bounded so one report cannot scan years of orders by accident.
import { museumTitleRows, museumZones, type ReportRange } from '../../db/repositories/reports.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { addDays, daysBetween, isValidDate } from '../time.ts';

export const MAX_REPORT_DAYS = 366;

export interface ReportInput {
  from: string;
  to: string;
  /** One museum; absent = every museum of the caller's scope. */
  museum_id?: number | undefined;
}

export interface ReportScope {
  from: string;
  to: string;
  /** The museums the report covers, with their zones (never empty: a report of nothing is refused). */
  museums: Array<{ id: number; zone: string }>;
}

/** Validates the range and resolves the museums in the caller's scope; another museum is 404. */
export async function reportScope(ctx: Ctx, input: ReportInput): Promise<ReportScope> {
  const errors: string[] = [];
  if (!isValidDate(input.from)) errors.push('from must be a date YYYY-MM-DD');
  if (!isValidDate(input.to)) errors.push('to must be a date YYYY-MM-DD');
  if (errors.length === 0) {
    const days = daysBetween(input.from, input.to);
    if (days < 0) errors.push('to must not be before from');
    else if (days >= MAX_REPORT_DAYS) errors.push(`the range may span at most ${MAX_REPORT_DAYS} days`);
  }
  if (errors.length) throw invalid(errors.join('; '), errors);
  if (input.museum_id !== undefined && !inMuseumScope(ctx.principal, input.museum_id)) throw notFound('museum');
  const rows = await museumZones(ctx.db);
  const wanted = rows.filter((m) => (input.museum_id === undefined ? inMuseumScope(ctx.principal, m.id) : m.id === input.museum_id));
  if (input.museum_id !== undefined && wanted.length === 0) throw notFound('museum');
  return { from: input.from, to: input.to, museums: wanted.sort((a, b) => a.id - b.id) };
}

/** SQL-ready museum ids (an impossible id when the scope holds none, so the query stays valid). */
export const museumIdsOf = (s: ReportScope) => (s.museums.length ? s.museums.map((m) => m.id) : [-1]);

/**
 * The range as the report statements take it. Every zone is within ±14 h of UTC: instants from
 * a day before `from` to two days after `to` hold every local day of the range.
 */
export function rangeOf(s: ReportScope): ReportRange {
  return { from: s.from, to: s.to, museumIds: museumIdsOf(s), lo: `${addDays(s.from, -1)}T00:00:00Z`, hi: `${addDays(s.to, 2)}T00:00:00Z` };
}

/** The museums a report may be narrowed to (the caller's scope), with titles in `locale`. */
export async function reportMuseums(ctx: Ctx, locale: string): Promise<Array<{ id: number; title: string }>> {
  const rows = await museumTitleRows(ctx.db);
  return rows
    .filter((m) => inMuseumScope(ctx.principal, m.id))
    .sort((a, b) => a.id - b.id)
    .map((m) => ({ id: m.id, title: m.title[locale] ?? m.title.de ?? Object.values(m.title)[0] ?? `#${m.id}` }));
}
