// Languages tours and event dates are given in (shared by every museum).
import { and, asc, eq, exists } from 'drizzle-orm';
import type { DbOrTx } from '../../client.ts';
import { eventDates, events, languages, tourLanguages, tours } from '../../schema/index.ts';
import type { LanguageRef } from './related.ts';
import { visibleSql, type Viewer } from './visibility.ts';

/**
 * Languages by id: every one (`viewer` undefined), or those offered by the tours (or active event
 * dates) `viewer` can see.
 */
export function languagesOffered(db: DbOrTx, of: 'tours' | 'events', viewer: Viewer | undefined): Promise<LanguageRef[]> {
  const used = !viewer
    ? undefined
    : of === 'tours'
      ? exists(
          db
            .select({ x: tourLanguages.tourId })
            .from(tourLanguages)
            .innerJoin(tours, eq(tours.id, tourLanguages.tourId))
            .where(and(eq(tourLanguages.languageId, languages.id), visibleSql(viewer, tours))),
        )
      : exists(
          db
            .select({ x: eventDates.id })
            .from(eventDates)
            .innerJoin(events, eq(events.id, eventDates.eventId))
            .where(and(eq(eventDates.languageId, languages.id), eq(eventDates.active, true), visibleSql(viewer, events))),
        );
  return db.select({ id: languages.id, name: languages.name }).from(languages).where(used).orderBy(asc(languages.id));
}

/** Whether a language has this code. */
export async function languageCodeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const [taken] = await db.select({ id: languages.id }).from(languages).where(eq(languages.code, code));
  return taken !== undefined;
}

/** Inserts a language; undefined when its code is taken (a concurrent insert included). */
export async function insertLanguage(db: DbOrTx, values: { code: string; name: string }): Promise<(LanguageRef & { code: string }) | undefined> {
  const [row] = await db.insert(languages).values(values).onConflictDoNothing().returning();
  return row && { id: row.id, name: row.name, code: row.code };
}
