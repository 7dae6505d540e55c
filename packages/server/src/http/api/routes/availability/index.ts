// Live availability (docs/api-contract.md §5): never cached (Cache-Control: no-store), readable by everybody,
// answering only about products the caller may see.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicRead } from '../../access.ts';
import {
  CalendarAnswer,
  CapacitiesAnswer,
  SlotsAnswer,
  StartTimesAnswer,
  TicketCalendarAnswer,
  TicketCalendarQuery,
  TicketCapacitiesQuery,
  TicketCapacityQuery,
  TourCalendarQuery,
  TourDateParams,
  TourStartTimesQuery,
} from '../../schemas/availability.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { getTicketCalendar } from '../../../../domain/availability/getTicketCalendar.ts';
import { getTicketCalendarQuotas } from '../../../../domain/availability/getTicketCalendarQuotas.ts';
import { getTicketCapacities } from '../../../../domain/availability/getTicketCapacities.ts';
import { getTicketCapacity } from '../../../../domain/availability/getTicketCapacity.ts';
import { getTourCalendar } from '../../../../domain/availability/getTourCalendar.ts';
import { getTourStartTimes } from '../../../../domain/availability/getTourStartTimes.ts';
import { isoInZone } from '../../../../domain/time.ts';

const config = { access: publicRead, cache: 'live' as const };
const tags = ['availability'];

export const availabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/tickets/:id/capacity',
    {
      config,
      schema: {
        tags,
        summary: 'Places left per slot of one ticket on a date (sold-out slots omitted)',
        params: IdParam,
        querystring: TicketCapacityQuery,
        response: { 200: SlotsAnswer, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => {
      const { zone, slots } = await getTicketCapacity(req.ctx, { ticketId: req.params.id, date: req.query.date, reservations: req.query.reservations });
      return { data: Object.fromEntries(slots.map((s) => [isoInZone(s.start, zone), s.left])) };
    },
  );

  app.get(
    '/tickets/capacities',
    {
      config,
      schema: {
        tags,
        summary: 'Places left and configured capacity per quota and slot for a set of tickets',
        querystring: TicketCapacitiesQuery,
        response: { 200: CapacitiesAnswer, ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const groups = await getTicketCapacities(req.ctx, { ticketIds: req.query.ticket_ids, date: req.query.date, reservations: req.query.reservations });
      const keyed = (m: Map<number, number>, zone: string) =>
        Object.fromEntries([...m.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => [isoInZone(new Date(t), zone), v]));
      return {
        data: Object.fromEntries(
          groups.map((g) => [String(g.quotaId), { tickets: g.tickets, capacities: keyed(g.capacities, g.zone), total_capacities: keyed(g.totals, g.zone) }]),
        ),
      };
    },
  );

  app.get(
    '/tickets/calendar',
    {
      config,
      schema: {
        tags,
        summary: 'Per day whether any of the tickets can still be booked, or (depth=all) their quotas with places left per slot (at most 366 days)',
        querystring: TicketCalendarQuery,
        response: { 200: TicketCalendarAnswer, ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const q = req.query;
      const input = { ticketIds: q.by_ticket_ids ?? q.ticket_ids, startAt: q.start_at, endAt: q.end_at, reservations: q.reservations };
      if (q.depth === 'all') return { data: Object.fromEntries(await getTicketCalendarQuotas(req.ctx, input)) };
      return { data: Object.fromEntries(await getTicketCalendar(req.ctx, input)) };
    },
  );

  app.get(
    '/tours/:id/start_times',
    {
      config,
      schema: {
        tags,
        summary: 'Per day whether the tour can still be booked (at most 366 days)',
        params: IdParam,
        querystring: TourCalendarQuery,
        response: { 200: CalendarAnswer, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => {
      const q = req.query;
      const days = await getTourCalendar(req.ctx, {
        tourId: req.params.id,
        startAt: q.start_at,
        endAt: q.end_at,
        participants: q.participants,
        languageId: q.language_id,
      });
      return { data: Object.fromEntries(days) };
    },
  );

  app.get(
    '/tours/:id/start_times/:date',
    {
      config,
      schema: {
        tags,
        summary: 'Start times of the tour on a date, with the participants still bookable',
        params: TourDateParams,
        querystring: TourStartTimesQuery,
        response: { 200: StartTimesAnswer, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => {
      const { zone, starts } = await getTourStartTimes(req.ctx, {
        tourId: req.params.id,
        date: req.params.date,
        participants: req.query.participants,
        languageId: req.query.language_id,
      });
      return {
        data: starts.map((s) => ({ start_time: isoInZone(s.start, zone), participants: { min: s.min, max: s.max, bookable: s.bookable } })),
      };
    },
  );
};
