// Rule checks beyond the structure, and normalisation to database values, for the places of a
// catalogue: languages, museums, exhibitions and quotas. Products are in rules-products.ts.
// Each function receives records that already passed the TypeBox schema.
import { isoInZone, parseTimestamp } from '../time.ts';
import { checkDate, parseHours, type Issues, type Plan } from './plan.ts';
import { WEEKDAYS, type CatalogueDocument, type MuseumDoc } from './schema.ts';
import type { Path } from './source.ts';

type Doc = Required<CatalogueDocument>;
/** Whether the record at a path passed the structural checks (rules run only on those). */
export type Ok = (path: Path) => boolean;

/** What the rules of one record may look up about the others (by key). */
export interface Refs {
  languages: Set<string>;
  museumZone: Map<string, string>;
  exhibitionMuseum: Map<string, string>;
  quotaMuseum: Map<string, string>;
  quotaKind: Map<string, 'slot' | 'day'>;
  /** "tickets/<key>", "quotas/<key>", "events/<key>", "tours/<key>" → museum key (closure scopes). */
  productMuseum: Map<string, string>;
}

export function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

/** A reference by key: reports an unknown one and returns whether it resolved. */
export function ref(issues: Issues, path: Path, what: string, key: string, known: { has(k: string): boolean }): boolean {
  if (known.has(key)) return true;
  issues.add(path, `unknown ${what} "${key}"`);
  return false;
}

export function checkLanguages(items: Doc['languages'], ok: Ok, issues: Issues, plan: Plan): void {
  const base = ['languages'];
  items.forEach((l, i) => {
    if (!ok([...base, i])) return;
    if (!/^[a-z]{2,3}(-[A-Za-z]{2})?$/.test(l.code)) issues.add([...base, i, 'code'], `"${l.code}" is not a language code such as "de"`);
    plan.languages.push({ code: l.code, name: l.name });
  });
}

function hoursOf(issues: Issues, path: Path, week: MuseumDoc['opening_hours']): Array<[number, number] | null> {
  return WEEKDAYS.map((day) => {
    const v = week[day];
    if (v === undefined) return null;
    const h = parseHours(v);
    if (h === undefined) issues.add([...path, day], `"${v}" is not opening hours: use "10:00-18:00" or closed`);
    return h ?? null;
  });
}

/** Dated seasons of a museum: valid ranges that do not overlap each other. */
function seasonsOf(issues: Issues, path: Path, m: MuseumDoc): Plan['museums'][number]['seasons'] {
  if (m.opening_seasons === undefined) return null;
  const out = m.opening_seasons.map((s, j) => {
    const at = [...path, 'opening_seasons', j];
    const start = checkDate(issues.at(at), ['start_date'], s.start_date);
    const end = checkDate(issues.at(at), ['end_date'], s.end_date);
    if (start && end && end < start) issues.add([...at, 'end_date'], 'end_date must not be before start_date');
    return { startDate: start ?? '', endDate: end ?? '', hours: hoursOf(issues, [...at, 'hours'], s.hours), j };
  });
  const sorted = out.filter((s) => s.startDate && s.endDate).sort((a, b) => (a.startDate < b.startDate ? -1 : 1));
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k]!.startDate <= sorted[k - 1]!.endDate) {
      issues.add([...path, 'opening_seasons', sorted[k]!.j], `overlaps opening_seasons[${sorted[k - 1]!.j}] (${sorted[k - 1]!.startDate} to ${sorted[k - 1]!.endDate})`);
    }
  }
  return out.map(({ j: _j, ...s }) => s);
}

export function checkMuseums(items: Doc['museums'], ok: Ok, issues: Issues, plan: Plan): void {
  const base = ['museums'];
  items.forEach((m, i) => {
    if (!ok([...base, i])) return;
    const path = [...base, i];
    if (!validZone(m.time_zone)) {
      issues.add([...path, 'time_zone'], `unknown time zone "${m.time_zone}": use an IANA zone such as Europe/Berlin`);
    }
    const exceptions: Record<string, [number, number] | null> = {};
    for (const [date, v] of Object.entries(m.opening_exceptions ?? {})) {
      const sub = [...path, 'opening_exceptions', date];
      if (!checkDate(issues.at(sub), [], date)) continue;
      const h = parseHours(v);
      if (h === undefined) issues.add(sub, `"${v}" is not opening hours: use "10:00-18:00" or closed`);
      else exceptions[date] = h;
    }
    plan.museums.push({
      key: m.key,
      values: {
        title: m.title,
        subTitle: m.sub_title ?? null,
        description: m.description ?? null,
        timeZone: m.time_zone,
        location: m.location ?? null,
        openingHours: hoursOf(issues, [...path, 'opening_hours'], m.opening_hours),
        openingExceptions: exceptions,
      },
      seasons: seasonsOf(issues, path, m),
    });
  });
}

export function checkExhibitions(items: Doc['exhibitions'], ok: Ok, issues: Issues, plan: Plan, refs: Refs): void {
  const base = ['exhibitions'];
  items.forEach((e, i) => {
    if (!ok([...base, i])) return;
    const path = [...base, i];
    ref(issues, [...path, 'museum'], 'museum', e.museum, refs.museumZone);
    const zone = refs.museumZone.get(e.museum) ?? 'UTC';
    const frames = (e.time_frames ?? []).map((f, j) => {
      const at = (field: 'start_at' | 'end_at') => {
        const d = parseTimestamp(f[field], zone);
        if (!d) issues.add([...path, 'time_frames', j, field], `"${f[field]}" is not a date-time: use e.g. 2026-05-01T10:00`);
        return d;
      };
      const [s, t] = [at('start_at'), at('end_at')];
      if (s && t && t <= s) issues.add([...path, 'time_frames', j, 'end_at'], 'end_at must be after start_at');
      return { start_at: s ? isoInZone(s, zone) : '', end_at: t ? isoInZone(t, zone) : '' };
    });
    plan.exhibitions.push({
      key: e.key,
      museum: e.museum,
      values: {
        title: e.title,
        subTitle: e.sub_title ?? null,
        description: e.description ?? null,
        featured: e.featured ?? false,
        timeFrames: frames,
      },
    });
  });
}

export function checkQuotas(items: Doc['quotas'], ok: Ok, issues: Issues, plan: Plan, refs: Refs): void {
  const base = ['quotas'];
  items.forEach((q, i) => {
    if (!ok([...base, i])) return;
    const path = [...base, i];
    ref(issues, [...path, 'museum'], 'museum', q.museum, refs.museumZone);
    const overrides = Object.entries(q.overrides ?? {}).flatMap(([date, capacity]) =>
      checkDate(issues.at([...path, 'overrides', date]), [], date) ? [{ date, capacity }] : [],
    );
    plan.quotas.push({
      key: q.key,
      museum: q.museum,
      values: { name: q.name ?? q.key, kind: q.kind, capacity: q.capacity },
      overrides,
    });
  });
}
