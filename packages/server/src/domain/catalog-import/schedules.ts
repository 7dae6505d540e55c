// Opening seasons and closures from the file (tables of migration 0012, read by the sellability
// rule in domain/schedules). Seasons are part of their museum: when the file gives them, the
// museum's seasons are the file's (as PUT /museums/:id/schedule with seasons does). Closures are
// records with a key: the file's are created or updated, closures made through the API have no
// key and are never touched.
import { replaceSeasons, seasonsOfMuseum } from '../../db/repositories/schedules/hours.ts';
import { atMinutes } from '../schedules/schedule.ts';
import type { Applier } from './apply.ts';
import type { Plan } from './plan.ts';
import { record } from './report.ts';

export async function applySeasons(a: Applier, museumKey: string, museumId: number, seasons: Plan['museums'][number]['seasons']): Promise<void> {
  if (seasons === null) return;
  const have = await seasonsOfMuseum(a.tx, museumId);
  const wanted = [...seasons].sort((x, y) => (x.startDate < y.startDate ? -1 : 1));
  const same = (x: { startDate: string; endDate: string; hours: unknown }, y: typeof x) =>
    x.startDate === y.startDate && x.endDate === y.endDate && JSON.stringify(x.hours) === JSON.stringify(y.hours);
  if (have.length === wanted.length && have.every((h, i) => same(h, wanted[i]!))) {
    a.summary.counts.opening_season.unchanged += wanted.length;
    return;
  }
  await replaceSeasons(a.tx, museumId, wanted.map((s) => ({ ...s, museumId })));
  for (const s of wanted) {
    const had = have.find((h) => same(h, s));
    if (had) a.summary.counts.opening_season.unchanged++;
    else record(a.summary, 'opening_season', `${museumKey} ${s.startDate}..${s.endDate}`, 'create');
  }
  for (const h of have) if (!wanted.some((s) => same(h, s))) record(a.summary, 'opening_season', `${museumKey} ${h.startDate}..${h.endDate}`, 'remove');
}

export async function applyClosures(
  a: Applier,
  plan: Plan,
  ids: { museums: Map<string, number>; tickets: Map<string, number>; quotas: Map<string, number>; events: Map<string, number>; tours: Map<string, number> },
): Promise<void> {
  for (const c of plan.closures) {
    const zone = plan.zones.get(c.museum) ?? 'UTC';
    const v = c.values;
    const list = (m: Map<string, number>, keys: string[]) => keys.map((k) => m.get(k)!).sort((x, y) => x - y);
    await a.upsert('closure', c.key, {
      museumId: ids.museums.get(c.museum),
      ...v,
      ticketIds: list(ids.tickets, c.tickets),
      quotaIds: list(ids.quotas, c.quotas),
      eventIds: list(ids.events, c.events),
      tourIds: list(ids.tours, c.tours),
      startsAt: atMinutes(v.startDate, v.startTime ?? 0, zone),
      endsAt: atMinutes(v.endDate, v.endTime ?? 1440, zone),
    });
  }
}
