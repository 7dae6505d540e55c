// What the console's schedules page offers in its selects: the museums of the user's scope and,
// for the chosen one, its tickets, quotas and events. Read-only; every write goes through the
// schedules and catalogue verbs, which check scope again.
import { eventTitlesOfMuseum, museumIdOf, museumTitles, quotasOfMuseum, ticketTitlesOfMuseum } from '../../db/repositories/catalog/options.ts';
import type { Translated } from '../../db/schema/catalog.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';

const title = (t: Translated | null | undefined, locale: string, id: number) => (t ? (t[locale] ?? t.de ?? Object.values(t)[0]) : undefined) ?? `#${id}`;

export interface ScheduleOptions {
  museums: Array<{ id: number; title: string }>;
  museum: { id: number; title: string; zone: string };
  tickets: Array<{ id: number; title: string }>;
  quotas: Array<{ id: number; name: string; kind: string }>;
  events: Array<{ id: number; title: string }>;
}

/** Options for museum `museumId` (default: the first in scope); another museum is NOT_FOUND. */
export async function scheduleOptions(ctx: Ctx, museumId: number | null, locale: string): Promise<ScheduleOptions> {
  const all = await museumTitles(ctx.db);
  const mine = all.filter((m) => inMuseumScope(ctx.principal, m.id));
  const m = museumId === null ? mine[0] : mine.find((x) => x.id === museumId);
  if (!m) throw notFound('museum');
  const [ts, qs, es] = await Promise.all([
    ticketTitlesOfMuseum(ctx.db, m.id),
    quotasOfMuseum(ctx.db, m.id),
    eventTitlesOfMuseum(ctx.db, m.id),
  ]);
  return {
    museums: mine.map((x) => ({ id: x.id, title: title(x.title, locale, x.id) })),
    museum: { id: m.id, title: title(m.title, locale, m.id), zone: m.zone },
    tickets: ts.map((t) => ({ id: t.id, title: title(t.title, locale, t.id) })),
    quotas: qs,
    events: es.map((e) => ({ id: e.id, title: title(e.title, locale, e.id) })),
  };
}

/** The museum of a quota or event (for tagging audit entries); null when there is none. */
export async function museumOf(ctx: Ctx, kind: 'quota' | 'event', id: number): Promise<number | null> {
  return (await museumIdOf(ctx.db, kind, id)) ?? null;
}
