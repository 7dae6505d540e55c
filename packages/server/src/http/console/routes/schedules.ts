// Schedules in the console (engineer B): a museum's weekly opening hours and date exceptions,
// its closures (created through the preview in closures.ts), capacity overrides per date or slot
// and recurring event dates. Reading is for every role; writing for managers and admins
// (permissions.ts). Each write is the schedules/catalogue verb plus its audit entry, in one
// transaction.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { museumOf, scheduleOptions } from '../../../domain/backoffice/scheduleOptions.ts';
import { createRecurringEventDates } from '../../../domain/catalog/createRecurringEventDates.ts';
import { getSchedule, setSchedule, WEEKDAY_NAMES } from '../../../domain/schedules/openingHours.ts';
import { listClosures } from '../../../domain/schedules/readClosures.ts';
import { capacitiesAnswer, writeCapacities } from '../../../domain/schedules/setCapacities.ts';
import { localDateOf } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import { numberOf } from './formInput.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

/** "2026-12-24 10:00-14:00" / "2026-12-31 closed", one per line, as the API's exceptions map. */
function exceptionsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).slice(0, 1001)) {
    const [date, ...rest] = line.split(/\s+/);
    out[date!] = rest.join(' ');
  }
  return out;
}

export const schedulePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/schedules', action: 'schedules.view' }, async (req, reply) => {
    const ctx = req.staffCtx;
    const museumParam = field(req.query, 'museum_id', 12);
    const options = await scheduleOptions(ctx, museumParam ? (intParam(museumParam) ?? -1) : null, req.consoleLocale);
    const today = localDateOf(ctx.clock.now(), options.museum.zone);
    const [schedule, closures] = await Promise.all([
      getSchedule(ctx, options.museum.id),
      listClosures(ctx, { by_museum_ids: [options.museum.id], from: today, per_page: 100 }),
    ]);
    const q = req.query as Record<string, unknown>;
    const result = { oversold: intParam(q.oversold), created: intParam(q.created), skipped: intParam(q.skipped) };
    return renderPage(req, reply, 'schedules/index', {
      title: translator(req.consoleLocale)('schedules.title'),
      options, schedule, closures: closures.items, today, weekdays: WEEKDAY_NAMES, result,
      canEdit: req.staffCtx.staff.role === 'admin' || req.staffCtx.staff.role === 'manager',
    });
  });

  consoleRoute(app, { method: 'POST', url: '/schedules/hours', action: 'schedules.edit' }, async (req, reply) => {
    const id = intParam(field(req.body, 'museum_id', 12)) ?? -1;
    // An empty weekday field leaves that day as stored.
    const weekly = Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, field(req.body, `weekly_${d}`, 20)]).filter(([, v]) => v !== ''));
    const exceptions = exceptionsOf(field(req.body, 'exceptions', 40_000));
    const before = await getSchedule(req.staffCtx, id);
    await audited(req.staffCtx, (ctx) => setSchedule(ctx, id, { weekly, exceptions }), (after) => ({
      action: 'schedule.update', entityType: 'museum', entityId: id, museumId: id, before, after,
    }));
    return seeOther(reply, `/console/schedules?museum_id=${id}`, 'hourssaved');
  });

  consoleRoute(app, { method: 'POST', url: '/capacities', action: 'schedules.edit' }, async (req, reply) => {
    const quotaId = intParam(field(req.body, 'quota_id', 12)) ?? 0;
    const entry = {
      date: field(req.body, 'date', 20),
      ...(field(req.body, 'time', 10) ? { time: field(req.body, 'time', 10) } : {}),
      ...(numberOf(req.body, 'capacity') !== undefined ? { capacity: numberOf(req.body, 'capacity') } : {}),
    };
    const museum = await museumOf(req.staffCtx, 'quota', quotaId);
    const written = await audited(req.staffCtx, (ctx) => writeCapacities(ctx, { id: quotaId, capacities: [entry] }), (w) => ({
      action: 'capacity.set', entityType: 'quota', entityId: quotaId, museumId: museum,
      after: w.entries.map((e) => ({ date: e.date, minutes: e.minutes, capacity: e.capacity })),
    }));
    const r = await capacitiesAnswer(req.staffCtx, written);
    const oversold = r.capacities.reduce((s, c) => s + c.oversold_by, 0);
    return seeOther(reply, `/console/schedules?museum_id=${museum}${oversold ? `&oversold=${oversold}` : ''}`, 'capacityset');
  });

  consoleRoute(app, { method: 'POST', url: '/event-dates', action: 'schedules.edit' }, async (req, reply) => {
    const eventId = intParam(field(req.body, 'event_id', 12)) ?? 0;
    const b = req.body;
    const recurrence = {
      rrule: field(b, 'rrule', 500),
      ...(field(b, 'start_date', 20) ? { start_date: field(b, 'start_date', 20) } : {}),
      start_time: field(b, 'start_time', 10),
      ...(numberOf(b, 'duration') !== undefined ? { duration: numberOf(b, 'duration') } : {}),
      ...(numberOf(b, 'seats') !== undefined ? { seats: numberOf(b, 'seats') } : {}),
    };
    const museum = await museumOf(req.staffCtx, 'event', eventId);
    const r = await audited(req.staffCtx, (ctx) => createRecurringEventDates(ctx, { event_id: eventId, recurrence }), (r) => ({
      action: 'event_dates.create', entityType: 'event', entityId: eventId, museumId: museum,
      after: { recurrence, created: r.dates.length, skipped: r.skipped },
    }));
    return seeOther(reply, `/console/schedules?museum_id=${museum}&created=${r.dates.length}&skipped=${r.skipped.length}`, 'datescreated');
  });
};
