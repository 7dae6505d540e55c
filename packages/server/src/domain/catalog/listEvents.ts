import { and, eq, sql } from 'drizzle-orm';
import { events } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { callerKey, localeKey, pageOfJson, pageOfViews, type JsonOut, type PagePlan } from './fragments.ts';
import { bound, given, inIds, shaped } from './pageQuery.ts';
import { paging, resolveLocale, titleMatches, titleShape, type ListInput, type Page } from './internal.ts';
import { eventLanguagesSql, type LanguageRef } from './loaders.ts';
import { eventView, type View } from './views.ts';
import { visibleShape, visibleSql } from './visibilitySql.ts';
import { eventLanguageFilter } from './languageFilter.ts';
import { categoryFilter, categoryNameSql, categoryRef } from './categories.ts';

export interface ListEventsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
  by_category_ids?: number[] | undefined;
  by_categories?: string[] | undefined;
  by_language_ids?: number[] | undefined;
}

export async function listEvents(ctx: Ctx, input: ListEventsInput): Promise<Page<View>> {
  return pageOfViews(ctx, eventsPlan(ctx, input));
}

/** The same page, each event as its JSON text, from row fragments where kept (fragments.ts). */
export async function listEventsJson(ctx: Ctx, input: ListEventsInput, out: JsonOut): Promise<Page<string>> {
  return pageOfJson(ctx, eventsPlan(ctx, input), out);
}

type EventRow = typeof events.$inferSelect & { languages: LanguageRef[]; categoryName: string | null };

function eventsPlan(ctx: Ctx, input: ListEventsInput): PagePlan<EventRow> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  // Rendered once per shape (pageQuery.ts#shaped): the caller's kind and scope, the filters given.
  const filters = given(input.by_museum_ids, input.by_exhibition_ids, input.by_featured, input.by_category_ids, input.by_categories, input.by_language_ids);
  const { where, shape } = shaped(ctx.db, `events|${visibleShape(ctx.principal)}|${filters}|${titleShape(input.q)}`, () =>
    and(
      visibleSql(ctx.principal, events),
      input.by_museum_ids?.length ? inIds(events.museumId, input.by_museum_ids) : undefined,
      input.by_exhibition_ids?.length ? inIds(events.exhibitionId, input.by_exhibition_ids) : undefined,
      input.by_featured === undefined ? undefined : eq(events.featured, bound(input.by_featured)),
      categoryFilter(events.categoryId, input, 'event'),
      eventLanguageFilter(input.by_language_ids),
      titleMatches(events.title, input.q),
    ),
  );
  // One statement: the page, the total and related ids (pageQuery.ts).
  return {
    spec: {
      table: events,
      where,
      extra: sql`${eventLanguagesSql(events.id)} as "languages", ${categoryNameSql(sql`${events}."categoryId"`)} as "categoryName"`,
      narrow: sql`${events.categoryId} as "categoryId"`,
      countApart: !input.q,
      order: sql`${events.id}`,
      limit: pg.perPage,
      offset: pg.offset,
      shape,
    },
    extraKeys: ['languages', 'categoryName'],
    view: (e) => eventView(ctx.principal, e, L, { languages: e.languages, category: categoryRef(e) }),
    context: `${callerKey(ctx.principal)}|${localeKey(L)}`,
    paging: pg,
  };
}
