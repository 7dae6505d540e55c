import { and, asc, eq, exists } from 'drizzle-orm';
import { eventDates, events, languages, tourLanguages, tours } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import type { LanguageRef } from './loaders.ts';
import { visibleSql } from './visibilitySql.ts';

/**
 * Languages offered by the tours (or event dates) the caller can see, so a reseller is never
 * told about a language it cannot book. Users also see languages nothing uses yet, because they
 * need them to set up new tours and dates (languages are shared by every museum).
 */
export async function listLanguages(ctx: Ctx, input: { of: 'tours' | 'events' }): Promise<LanguageRef[]> {
  const p = ctx.principal;
  const used =
    input.of === 'tours'
      ? exists(
          ctx.db
            .select({ x: tourLanguages.tourId })
            .from(tourLanguages)
            .innerJoin(tours, eq(tours.id, tourLanguages.tourId))
            .where(and(eq(tourLanguages.languageId, languages.id), visibleSql(p, tours))),
        )
      : exists(
          ctx.db
            .select({ x: eventDates.id })
            .from(eventDates)
            .innerJoin(events, eq(events.id, eventDates.eventId))
            .where(and(eq(eventDates.languageId, languages.id), eq(eventDates.active, true), visibleSql(p, events))),
        );
  const all = p.kind === 'account' && p.access === 'user';
  return ctx.db
    .select({ id: languages.id, name: languages.name })
    .from(languages)
    .where(all ? undefined : used)
    .orderBy(asc(languages.id));
}
