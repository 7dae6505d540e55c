// Event dates (staff): create and update. Each date is one pool of seats; its seats may not drop
// below what is already booked, so a change never turns existing bookings into an oversell.
import { eventWithZone, insertEventDate, lockEventDate, updateEventDate } from '../../db/repositories/catalog/eventDates.ts';
import { languageById } from '../../db/repositories/catalog/records.ts';
import { transaction } from '../../db/transaction.ts';
import { eventDateSeatsBooked } from '../capacity/eventDateSeatsBooked.ts';
import { closedEventDates } from '../schedules/eventDates.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { isoInZone, parseTimestamp } from '../time.ts';
import { eventDateRules, languageRefs } from './rules.ts';
import { eventDateView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writeView } from './writeSupport.ts';
import { categoryOf } from './categories.ts';

export interface EventDateInput {
  start_time?: string;
  duration?: number;
  seats_min?: number;
  seats_max?: number;
  max_per_registration?: number | null;
  language_id?: number | null;
  active?: boolean;
}

export async function saveEventDate(ctx: Ctx, input: EventDateInput & { event_id: number; id?: number }): Promise<View> {
  assertStaff(ctx);
  const { event_id, id, ...changes } = input;
  const now = ctx.clock.now();
  const { row, event, zone } = await transaction(ctx.db, async (tx) => {
    const found = await eventWithZone(tx, event_id);
    if (!found || !inMuseumScope(ctx.principal, found.event.museumId)) throw notFound('event');
    let d: EventDateInput = { duration: 60, seats_min: 1, max_per_registration: null, language_id: null, active: true };
    let booked = 0;
    if (id !== undefined) {
      // Row lock: serialises with other edits of this date.
      const c = await lockEventDate(tx, id, event_id);
      if (!c) throw notFound('date');
      d = {
        start_time: isoInZone(c.startAt, found.zone), duration: c.duration, seats_min: c.seatsMin, seats_max: c.seatsMax,
        max_per_registration: c.maxPerRegistration, language_id: c.languageId, active: c.active,
      };
      booked = (await eventDateSeatsBooked(tx, [id], now)).get(id) ?? 0;
    }
    d = { ...d, ...defined(changes) };
    failIfAny('date', eventDateRules(found.zone, d as Record<string, unknown>));
    const problems = d.language_id ? await languageRefs(tx, [d.language_id]) : [];
    if (d.seats_max! < booked) problems.push(`seats_max must not be below the ${booked} seats already booked`);
    failIfAny('date', problems);
    const v = {
      eventId: event_id, startAt: parseTimestamp(d.start_time!, found.zone)!, duration: d.duration!, seatsMin: d.seats_min!,
      seatsMax: d.seats_max!, maxPerRegistration: d.max_per_registration ?? null, languageId: d.language_id ?? null, active: d.active!,
    };
    const row = id === undefined ? await insertEventDate(tx, v) : await updateEventDate(tx, id, { ...v, updatedAt: now });
    return { row, event: found.event, zone: found.zone };
  });
  const language = row.languageId ? await languageById(ctx.db, row.languageId) : undefined;
  const booked = (await eventDateSeatsBooked(ctx.db, [row.id], now)).get(row.id) ?? 0;
  const [closed] = await closedEventDates(ctx, ctx.db, [{ museumId: event.museumId, eventId: event.id, startAt: row.startAt, duration: row.duration }]);
  return eventDateView(ctx.principal, row, event, writeView(ctx).L, { zone, booked, language: language ?? null, category: await categoryOf(ctx.db, event.categoryId), now, closed: closed! });
}
