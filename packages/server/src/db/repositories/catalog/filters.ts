// Conditions shared by the catalogue lists: the title search, go~mus `by_language_ids[]` and
// `by_category_ids[]` / `by_categories[]`, and a row's category name as a column. Values are
// bound by name (shapes.ts), so a condition's text is the same whatever its values.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { categories, eventDates, events, tourLanguages, tours } from '../../schema/index.ts';
import { bound, inIds } from './shapes.ts';

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
 * index (migration 0032, docs/adr/0022-catalogue-read-path.md). `%q%` cannot match
 * across the separator, so it matches that text exactly when it matches one translation.
 * Otherwise each translation is tested on its own (no index).
 */
export function titleMatches(title: AnyPgColumn, q: string | undefined): SQL | undefined {
  if (q === undefined || q === '') return undefined;
  const pattern = likePattern(q);
  if (titleShape(q) === 'exact') return sql`exists (select 1 from jsonb_each_text(${title}) as tr(k, v) where tr.v ilike ${bound(pattern)} escape '\\')`;
  // The matching ids are picked in a sub-select of their own, which PostgreSQL plans apart (an
  // InitPlan): there the trigram index is the obvious path. Written into the page's own WHERE, the
  // cheap test made the generic plan walk a whole channel index in id order and filter every row.
  const id = getTableColumns(title.table).id as AnyPgColumn;
  return sql`${id} = any(array(select "__s"."id" from ${title.table} as "__s" where "__s"."title_search" ilike ${bound(pattern)} escape '\\'))`;
}

/** Which statement `titleMatches` gives for `q`, for a statement's shape key (shapes.ts#shaped). */
export function titleShape(q: string | undefined): '' | 'exact' | 'text' {
  if (q === undefined || q === '') return '';
  return CONTROL.test(q) ? 'exact' : 'text';
}

// go~mus `by_language_ids[]` on /events, /tours, /dates, /events/:id/dates and the calendars: a
// date in one of the languages; an event with an active date in one; a tour offered in one. An
// id naming no language matches nothing (an empty list), as go~mus answers.
type Ids = readonly number[] | undefined;

export function dateLanguageFilter(ids: Ids): SQL | undefined {
  return ids?.length ? inIds(eventDates.languageId, ids) : undefined;
}

export function eventLanguageFilter(ids: Ids): SQL | undefined {
  if (!ids?.length) return undefined;
  return sql`exists (select 1 from ${eventDates} where ${eventDates.eventId} = ${events.id} and ${eventDates.active} and ${inIds(eventDates.languageId, ids)})`;
}

export function tourLanguageFilter(ids: Ids): SQL | undefined {
  if (!ids?.length) return undefined;
  return sql`exists (select 1 from ${tourLanguages} where ${tourLanguages.tourId} = ${tours.id} and ${inIds(tourLanguages.languageId, ids)})`;
}

export type CategoryKind = 'event' | 'tour';

/** go~mus `by_category_ids[]` and `by_categories[]` (names). */
export interface CategoryFilter {
  categoryIds?: readonly number[] | undefined;
  categoryNames?: readonly string[] | undefined;
}

/**
 * The category filters on a list of `kind` records: a record matches either. An id or a name
 * that names no category matches nothing, as in go~mus (an empty list, not an error).
 */
export function categoryFilter(categoryId: AnyPgColumn, input: CategoryFilter, kind: CategoryKind): SQL | undefined {
  const ids = input.categoryIds?.length ? inIds(categoryId, input.categoryIds) : undefined;
  const names = input.categoryNames?.length
    ? sql`${categoryId} in (select ${categories.id} from ${categories} where ${categories.kind} = ${bound(kind)} and ${categories.name} = any(${bound(input.categoryNames)}::text[]))`
    : undefined;
  if (ids && names) return sql`(${ids} or ${names})`;
  return ids ?? names;
}

/**
 * The name of a row's category as a column, for one-statement reads; the domain's categoryRef()
 * makes the `{id, name}`. A plain text column, not json_build_object, which cost more per page.
 * In a page's extra columns (pages.ts) the row's columns go by property name: pass
 * sql`${table}."categoryId"`.
 */
export function categoryNameSql(categoryId: AnyPgColumn | SQL): SQL {
  return sql`(select ${categories.name} from ${categories} where ${categories.id} = ${categoryId})`;
}
