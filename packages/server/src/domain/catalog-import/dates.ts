// The dates of one event from the file: single dates by their key, and every date of each
// `recurrence`, keyed by its start like a single date (so re-importing updates them). Recurring
// dates the sellability rule refuses (closed day, closure) are not created, exactly as through
// the API (domain/catalog/recurringDates.ts); dates already written stay as they are.
import { planRecurringDates } from '../catalog/recurringDates.ts';
import { DomainError } from '../errors.ts';
import { isoInZone, localDateOf } from '../time.ts';
import type { Applier } from './apply.ts';
import type { Plan } from './plan.ts';

type EventPlan = Plan['events'][number];

export async function applyEventDates(
  a: Applier,
  e: EventPlan,
  at: { eventId: number; museumId: number; zone: string; languageIds: Map<string, number> },
): Promise<void> {
  const done = new Set<string>();
  const write = (key: string, d: EventPlan['dates'][number], startAt?: Date) =>
    a.upsert('event_date', `${e.key}/${key}`, {
      ...d.values,
      ...(startAt ? { startAt } : {}),
      eventId: at.eventId,
      languageId: d.language ? at.languageIds.get(d.language) : null,
    });
  for (const d of e.dates) {
    if (d.recurrence) continue;
    done.add(d.key);
    await write(d.key, d);
  }
  for (const d of e.dates) {
    const r = d.recurrence;
    if (!r) continue;
    const plan = await planRecurringDates(a.tx, {
      eventId: at.eventId,
      museumId: at.museumId,
      spec: { rrule: r.rrule, startMinutes: r.startMinutes, startDate: r.startDate ?? localDateOf(a.now, at.zone), zone: at.zone },
      duration: d.values.duration ?? 60,
      now: a.now,
      keepExisting: true,
    });
    // Validation expanded the same rule already; a problem here would be a bug, not bad input.
    if (!('starts' in plan)) throw new DomainError('VALIDATION_FAILED', `event ${e.key}: ${plan.problems.join('; ')}`);
    for (const s of plan.skipped) {
      a.named.add(`event_date\u0000${e.key}/${isoInZone(s.start, at.zone)}`);
      if (s.reason !== 'in the past') a.summary.skipped.push(`event ${e.key} ${isoInZone(s.start, at.zone)}: ${s.reason}`);
    }
    for (const start of plan.starts) {
      const key = isoInZone(start, at.zone);
      if (done.has(key)) continue;
      done.add(key);
      await write(key, d, start);
    }
  }
}
