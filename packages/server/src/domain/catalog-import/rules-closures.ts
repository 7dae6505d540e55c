// Closures in a catalogue file (docs/api-contract.md §13 in docs): the same checks as POST /closures
// (domain/schedules/closureInput.ts: clock format, at most MAX_CLOSURE_DAYS, end after start),
// with what they close named by key in the file. Import never cancels orders: a closure over
// live orders is created like one without cancel_orders, and staff decide (GET /closures/:id).
import { MAX_CLOSURE_DAYS, parseClock } from '../schedules/closureInput.ts';
import { atMinutes } from '../schedules/schedule.ts';
import { daysBetween } from '../time.ts';
import { checkDate, type Issues, type Plan } from './plan.ts';
import { ref, type Ok, type Refs } from './rules.ts';
import type { CatalogueDocument } from './schema.ts';

const SCOPES = [
  ['tickets', 'ticket'],
  ['quotas', 'quota'],
  ['events', 'event'],
  ['tours', 'tour'],
] as const;

export function checkClosures(items: Required<CatalogueDocument>['closures'], ok: Ok, issues: Issues, plan: Plan, refs: Refs): void {
  items.forEach((c, i) => {
    const path = ['closures', i];
    if (!ok(path)) return;
    ref(issues, [...path, 'museum'], 'museum', c.museum, refs.museumZone);
    const start = checkDate(issues.at(path), ['start_date'], c.start_date);
    const end = c.end_date === undefined ? start : checkDate(issues.at(path), ['end_date'], c.end_date);
    const time = (field: 'start_time' | 'end_time') => {
      const v = c[field];
      if (v === undefined) return null;
      const min = parseClock(v);
      if (min === undefined) issues.add([...path, field], `"${v}" is not a time from 00:00 to 24:00 (HH:MM)`);
      return min ?? null;
    };
    const [startTime, endTime] = [time('start_time'), time('end_time')];
    if (start && end) {
      const zone = refs.museumZone.get(c.museum) ?? 'UTC';
      if (end < start) issues.add([...path, 'end_date'], 'end_date must not be before start_date');
      else if (daysBetween(start, end) >= MAX_CLOSURE_DAYS) issues.add([...path, 'end_date'], `a closure spans at most ${MAX_CLOSURE_DAYS} days`);
      else if (atMinutes(end, endTime ?? 1440, zone) <= atMinutes(start, startTime ?? 0, zone)) issues.add([...path, 'end_time'], 'end_time must be after start_time');
    }
    const scope = Object.fromEntries(
      SCOPES.map(([field, kind]) => {
        const keys = c[field] ?? [];
        keys.forEach((k, j) => {
          const at = [...path, field, j];
          if (!ref(issues, at, kind, k, { has: (x: string) => refs.productMuseum.has(`${field}/${x}`) })) return;
          if (refs.productMuseum.get(`${field}/${k}`) !== c.museum) issues.add(at, `${kind} "${k}" belongs to another museum`);
        });
        return [field, [...new Set(keys)]];
      }),
    ) as Record<(typeof SCOPES)[number][0], string[]>;
    plan.closures.push({
      key: c.key,
      museum: c.museum,
      ...scope,
      values: { startDate: start ?? '', endDate: end ?? '', startTime, endTime, reason: c.reason?.trim() || null },
    });
  });
}
