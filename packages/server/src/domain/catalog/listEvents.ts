import { and, asc, eq, inArray } from 'drizzle-orm';
import { events } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { pageOf, paging, resolveLocale, titleMatches, type ListInput, type Page } from './internal.ts';
import { languagesByEvent } from './loaders.ts';
import { eventView, type View } from './views.ts';
import { visibleSql } from './visibilitySql.ts';

export interface ListEventsInput extends ListInput {
  by_museum_ids?: number[] | undefined;
  by_exhibition_ids?: number[] | undefined;
  by_featured?: boolean | undefined;
}

export async function listEvents(ctx: Ctx, input: ListEventsInput): Promise<Page<View>> {
  const L = resolveLocale(ctx, input.locale);
  const pg = paging(ctx, input);
  const where = and(
    visibleSql(ctx.principal, events),
    input.by_museum_ids?.length ? inArray(events.museumId, input.by_museum_ids) : undefined,
    input.by_exhibition_ids?.length ? inArray(events.exhibitionId, input.by_exhibition_ids) : undefined,
    input.by_featured === undefined ? undefined : eq(events.featured, input.by_featured),
    titleMatches(events.title, input.q),
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(events).where(where).orderBy(asc(events.id)).limit(pg.perPage).offset(pg.offset),
    ctx.db.$count(events, where),
  ]);
  const langs = await languagesByEvent(ctx.db, rows.map((e) => e.id));
  return pageOf(rows.map((e) => eventView(ctx.principal, e, L, { languages: langs.get(e.id) ?? [] })), total, pg);
}
