// The schedules page of one museum, shared by its GET and by the forms that show the page again
// with a mistake (everything typed kept) or a preview: closures, opening hours, capacity
// overrides and recurring event dates.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { scheduleOptions } from '../../../domain/backoffice/scheduleOptions.ts';
import type { RecurrencePreview } from '../../../domain/catalog/previewRecurringEventDates.ts';
import { getSchedule } from '../../../domain/schedules/openingHours.ts';
import { listClosures } from '../../../domain/schedules/readClosures.ts';
import { RULE_WEEKDAYS } from '../../../domain/schedules/weeklyRule.ts';
import { localDateOf } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import { datesFormOf, type DatesForm } from './datesForm.ts';
import { hoursFormOf, type HoursForm } from './hoursForm.ts';
import { intParam } from './kit.ts';
import { renderPage } from './render.ts';

export interface ScheduleExtras {
  hours?: HoursForm;
  dates?: DatesForm;
  preview?: RecurrencePreview & { skippedText: Array<{ start: Date; reason: string }> };
}

const REASONS: Record<string, string> = {
  'in the past': 'dates.skip.past',
  'the event already has a date at this time': 'dates.skip.exists',
  closed: 'dates.skip.closed',
  'outside opening hours': 'dates.skip.hours',
};

/** A skip reason in the user's words (a closure's own reason is shown as typed). */
export const skipReason = (req: FastifyRequest, reason: string) => (REASONS[reason] ? translator(req.consoleLocale)(REASONS[reason]!) : reason);

export async function schedulePage(req: FastifyRequest, reply: FastifyReply, museumId: number | null, extras: ScheduleExtras = {}, status = 200) {
  const ctx = req.staffCtx;
  const options = await scheduleOptions(ctx, museumId, req.consoleLocale);
  const today = localDateOf(ctx.clock.now(), options.museum.zone);
  const [schedule, closures] = await Promise.all([
    getSchedule(ctx, options.museum.id),
    listClosures(ctx, { by_museum_ids: [options.museum.id], from: today, per_page: 100 }),
  ]);
  const q = req.query as Record<string, unknown>;
  const result = { oversold: intParam(q.oversold), created: intParam(q.created), skipped: intParam(q.skipped) };
  return renderPage(req, reply, 'schedules/index', {
    title: translator(req.consoleLocale)('schedules.title'),
    options, schedule, closures: closures.items, today, result,
    hours: extras.hours ?? hoursFormOf(schedule),
    dates: extras.dates ?? datesFormOf(today),
    preview: extras.preview ?? null,
    ruleWeekdays: RULE_WEEKDAYS,
    canEdit: ctx.staff.role === 'admin' || ctx.staff.role === 'manager',
  }, status);
}
