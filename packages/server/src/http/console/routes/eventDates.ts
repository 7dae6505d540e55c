// Recurring event dates from the schedules page: the form (datesForm.ts) becomes a rule; "show
// dates" previews the next dates and the skipped ones without writing, "create" writes them
// through the catalogue verb with its audit entry in one transaction. A mistake shows the page
// again with everything typed kept.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { museumOf } from '../../../domain/backoffice/scheduleOptions.ts';
import { createRecurringEventDates } from '../../../domain/catalog/createRecurringEventDates.ts';
import { previewRecurringEventDates } from '../../../domain/catalog/previewRecurringEventDates.ts';
import { DomainError, notFound } from '../../../domain/errors.ts';
import { translator } from '../i18n.ts';
import { parseDatesForm, type DatesForm } from './datesForm.ts';
import { consoleRoute, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { seeOther } from './render.ts';
import { schedulePage, skipReason } from './schedulePage.ts';

/** The event's museum (scope-checked by the page that shows it); an unknown event is "not found". */
async function museumOfEvent(req: FastifyRequest, eventId: number) {
  const museum = await museumOf(req.staffCtx, 'event', eventId);
  if (museum === null) throw notFound('event');
  return museum;
}

async function withProblems(req: FastifyRequest, reply: FastifyReply, museum: number, form: DatesForm, e: unknown) {
  if (!(e instanceof DomainError) || e.code !== 'VALIDATION_FAILED') throw e;
  form.problems = (e.errors ?? [e.message]).map((text) => ({ id: 'ev', text }));
  return schedulePage(req, reply, museum, { dates: form }, 422);
}

export const eventDatePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'POST', url: '/event-dates/preview', action: 'schedules.edit' }, async (req, reply) => {
    const { form, input } = parseDatesForm(translator(req.consoleLocale), req.body);
    const museum = await museumOfEvent(req, input?.event_id ?? intParam(form.event_id) ?? 0);
    if (!input) return schedulePage(req, reply, museum, { dates: form }, 422);
    try {
      const p = await previewRecurringEventDates(req.staffCtx, input);
      return schedulePage(req, reply, museum, { dates: form, preview: { ...p, skippedText: p.skipped.map((s) => ({ start: s.start, reason: skipReason(req, s.reason) })) } });
    } catch (e) {
      return withProblems(req, reply, museum, form, e);
    }
  });

  consoleRoute(app, { method: 'POST', url: '/event-dates', action: 'schedules.edit' }, async (req, reply) => {
    const { form, input } = parseDatesForm(translator(req.consoleLocale), req.body);
    const museum = await museumOfEvent(req, input?.event_id ?? intParam(form.event_id) ?? 0);
    if (!input) return schedulePage(req, reply, museum, { dates: form }, 422);
    try {
      const r = await audited(req.staffCtx, (ctx) => createRecurringEventDates(ctx, input), (r) => ({
        action: 'event_dates.create', entityType: 'event', entityId: input.event_id, museumId: museum,
        after: { recurrence: input.recurrence, created: r.dates.length, skipped: r.skipped },
      }));
      return seeOther(reply, `/console/schedules?museum_id=${museum}&created=${r.dates.length}&skipped=${r.skipped.length}`, 'datescreated');
    } catch (e) {
      return withProblems(req, reply, museum, form, e);
    }
  });
};
