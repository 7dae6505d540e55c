// The recurring event dates form: weekdays, time, first date and an end (a last date or a number
// of dates) become an RFC 5545 rule through domain/schedules/weeklyRule.ts; the raw-rule field
// stays as an advanced option and wins when filled. Everything typed is kept for the page that
// shows a mistake or the preview.
import type { RecurringDatesInput } from '../../../domain/catalog/createRecurringEventDates.ts';
import { RULE_WEEKDAYS, weeklyRule } from '../../../domain/schedules/weeklyRule.ts';
import type { Translate } from '../i18n.ts';
import { numberOf } from './formInput.ts';
import { field, intParam } from './kit.ts';

export interface DatesForm {
  event_id: string;
  weekdays: string[];
  start_time: string;
  start_date: string;
  ends: 'until' | 'count';
  until: string;
  count: string;
  duration: string;
  seats: string;
  rrule: string;
  problems: Array<{ id: string; text: string }>;
}

export const datesFormOf = (today: string): DatesForm => ({
  event_id: '', weekdays: [], start_time: '', start_date: today, ends: 'until', until: '', count: '', duration: '60', seats: '', rrule: '', problems: [],
});

const FIELD_OF = { weekdays: 'dw-MO', until: 'd-until', count: 'd-count', end: 'd-ends-until' } as const;

export function parseDatesForm(t: Translate, body: unknown): { form: DatesForm; input?: RecurringDatesInput } {
  const given = (body as Record<string, unknown> | undefined)?.weekdays;
  const weekdays = (Array.isArray(given) ? given : given ? [given] : []).map(String).filter((d) => (RULE_WEEKDAYS as readonly string[]).includes(d));
  const form: DatesForm = {
    event_id: field(body, 'event_id', 12), weekdays, start_time: field(body, 'start_time', 8), start_date: field(body, 'start_date', 20),
    ends: field(body, 'ends', 5) === 'count' ? 'count' : 'until', until: field(body, 'until', 20), count: field(body, 'count', 6),
    duration: field(body, 'duration', 6), seats: field(body, 'seats', 9), rrule: field(body, 'rrule', 500), problems: [],
  };
  let rrule = form.rrule;
  if (!rrule) {
    const count = numberOf(body, 'count');
    const end = form.ends === 'until' ? (form.until ? { until: form.until } : {}) : count !== undefined ? { count } : {};
    const built = weeklyRule({ weekdays, ...end });
    if ('problems' in built) {
      form.problems = built.problems.map((p) => ({ id: FIELD_OF[p], text: t(`dates.error.${p}`) }));
      return { form };
    }
    rrule = built.rule;
  }
  const input: RecurringDatesInput = {
    event_id: intParam(form.event_id) ?? 0,
    recurrence: {
      rrule,
      ...(form.start_date ? { start_date: form.start_date } : {}),
      start_time: form.start_time.replace(/^(\d{2}:\d{2}):00$/, '$1'),
      ...(numberOf(body, 'duration') !== undefined ? { duration: numberOf(body, 'duration') } : {}),
      ...(numberOf(body, 'seats') !== undefined ? { seats: numberOf(body, 'seats') } : {}),
    },
  };
  return { form, input };
}
