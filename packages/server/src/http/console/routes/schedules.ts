// Schedules in the console: a museum's weekly opening hours and date exceptions (a form of toggles
// and time pickers, hoursForm.ts), its closures (created through the preview in closures.ts),
// capacity overrides per date or slot and recurring event dates (eventDates.ts). Reading is for
// every role; writing for managers and admins (permissions.ts). Each write is the
// schedules/catalogue verb plus its audit entry, in one transaction.
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { museumOf } from '../../../domain/backoffice/scheduleOptions.ts';
import { DomainError } from '../../../domain/errors.ts';
import { getSchedule, setSchedule } from '../../../domain/schedules/openingHours.ts';
import { capacitiesAnswer, writeCapacities } from '../../../domain/schedules/setCapacities.ts';
import { translator } from '../i18n.ts';
import { numberOf } from './formInput.ts';
import { parseHoursForm } from './hoursForm.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { seeOther } from './render.ts';
import { schedulePage } from './schedulePage.ts';

export const schedulePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/schedules', action: 'schedules.view' }, async (req, reply) => {
    const museumParam = field(req.query, 'museum_id', 12);
    return schedulePage(req, reply, museumParam ? (intParam(museumParam) ?? -1) : null);
  });

  consoleRoute(app, { method: 'POST', url: '/schedules/hours', action: 'schedules.edit' }, async (req, reply) => {
    const id = intParam(field(req.body, 'museum_id', 12)) ?? -1;
    const t = translator(req.consoleLocale);
    const { form, input } = parseHoursForm(t, req.body);
    // The museum is looked up (and scope-checked) before a mistake is shown on its page.
    const before = await getSchedule(req.staffCtx, id);
    if (!input) return schedulePage(req, reply, id, { hours: form }, 422);
    try {
      await audited(req.staffCtx, (ctx) => setSchedule(ctx, id, input), (after) => ({
        action: 'schedule.update', entityType: 'museum', entityId: id, museumId: id, before, after,
      }));
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== 'VALIDATION_FAILED') throw e;
      form.problems = (e.errors ?? [e.message]).map((text) => ({ id: 'hours-h', text }));
      return schedulePage(req, reply, id, { hours: form }, 422);
    }
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
};
