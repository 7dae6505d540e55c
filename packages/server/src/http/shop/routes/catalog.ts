// The shop's browsing pages: home (museums, exhibitions, offers), one museum, and the offer pages
// that are also the deep links (/shop/tickets/:id, /shop/events/:id, /shop/tours/:id): a month
// calendar, the chosen day's slots with places left (or the event's dates, or the tour's start
// times and languages) and the form that puts places in the cart.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { getTicketCapacity } from '../../../domain/availability/getTicketCapacity.ts';
import { getTourStartTimes } from '../../../domain/availability/getTourStartTimes.ts';
import { listEventDates } from '../../../domain/catalog/listEventDates.ts';
import { notFound } from '../../../domain/errors.ts';
import { addDays, isoInZone, localDateOf } from '../../../domain/time.ts';
import { dayNav, ticketDayState, ticketMonth, tourMonth } from '../calendar.ts';
import { shopFormatters, shopTranslator } from '../i18n.ts';
import { dateField, intParam } from '../kit.ts';
import { categoriesOf, eventOf, museumOf, shopListing, ticketOf, tourOf, type EventDateV } from '../offers.ts';
import { renderPage } from '../render.ts';

const EVENT_DAYS_AHEAD = 120;

function idOf(req: FastifyRequest): number {
  const id = intParam((req.params as Record<string, unknown>).id);
  if (id === null) throw notFound('offer');
  return id;
}

export const catalogRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    const data = await shopListing(req.readCtx, req.shopLocale, undefined, req.shopKeep);
    return renderPage(req, reply, 'home', { ...data, museum: null });
  });

  app.get('/m/:museum_id', { schema: { hide: true } }, async (req, reply) => {
    const id = intParam((req.params as Record<string, unknown>).museum_id);
    const museum = id === null ? undefined : await museumOf(req.readCtx, id, req.shopLocale, req.shopKeep);
    if (!museum) throw notFound('museum');
    const data = await shopListing(req.readCtx, req.shopLocale, museum.id, req.shopKeep);
    return renderPage(req, reply, 'home', { ...data, museum, title: museum.title });
  });

  app.get('/tickets/:id', { schema: { hide: true } }, async (req, reply) => {
    const ctx = req.readCtx;
    const ticket = await ticketOf(ctx, idOf(req), req.shopLocale, req.shopKeep);
    const museum = await museumOf(ctx, ticket.museum_ids[0]!, req.shopLocale, req.shopKeep);
    const zone = museum?.time_zone ?? ctx.config.zone;
    const q = req.query as Record<string, unknown>;
    const date = dateField(q, 'date');
    const base = `/shop/tickets/${ticket.id}`;
    const page = { title: ticket.title, ticket, museum, date, base };
    const nav = date ? dayNav(ctx, zone, date) : null;
    if (!nav) return renderPage(req, reply, 'ticket', { ...page, month: await ticketMonth(ctx, ticket.id, zone, date ? date.slice(0, 7) : q.month), slots: null, categories: null });
    // The day asked, not its month (the month is one link away): its slots and, only when none is
    // left, whether it is sold out or closed.
    const [day, categories] = await Promise.all([getTicketCapacity(ctx, { ticketId: ticket.id, date }), categoriesOf(ctx, ticket, req.shopLocale, req.shopKeep)]);
    const slots = day.slots.map((s) => ({ value: isoInZone(s.start, zone), label: shopTimeLabel(req, s.start, zone, ticket.ticket_type), left: s.left }));
    const dayState = slots.length ? null : await ticketDayState(ctx, ticket.id, date);
    return renderPage(req, reply, 'ticket', { ...page, month: null, dayNav: nav, dayState, slots, categories });
  });

  app.get('/events/:id', { schema: { hide: true } }, async (req, reply) => {
    const ctx = req.readCtx;
    const event = await eventOf(ctx, idOf(req), req.shopLocale, req.shopKeep);
    const museum = await museumOf(ctx, event.museum_id, req.shopLocale, req.shopKeep);
    const today = localDateOf(ctx.clock.now(), museum?.time_zone ?? ctx.config.zone);
    const page = await listEventDates(ctx, { event_id: event.id, start_at: today, end_at: addDays(today, EVENT_DAYS_AHEAD), locale: req.shopLocale, per_page: 25 });
    const dates = (page.items as unknown as EventDateV[]).map((d) => ({ ...d, start: new Date(d.start_time) }));
    return renderPage(req, reply, 'event', { title: event.title, event, museum, dates, zone: museum?.time_zone ?? ctx.config.zone });
  });

  app.get('/tours/:id', { schema: { hide: true } }, async (req, reply) => {
    const ctx = req.readCtx;
    const tour = await tourOf(ctx, idOf(req), req.shopLocale, req.shopKeep);
    const museum = await museumOf(ctx, tour.museum_id, req.shopLocale, req.shopKeep);
    const zone = museum?.time_zone ?? ctx.config.zone;
    const q = req.query as Record<string, unknown>;
    const date = dateField(q, 'date');
    const month = await tourMonth(ctx, tour.id, zone, date ? date.slice(0, 7) : q.month);
    let starts = null;
    if (date && date >= localDateOf(ctx.clock.now(), zone)) {
      const day = await getTourStartTimes(ctx, { tourId: tour.id, date });
      starts = day.starts.filter((s) => s.bookable > 0).map((s) => ({ value: isoInZone(s.start, zone), label: shopTimeLabel(req, s.start, zone, 'time_slot') }));
    }
    return renderPage(req, reply, 'tour', { title: tour.title, tour, museum, month, date, starts, base: `/shop/tours/${tour.id}` });
  });
};

function shopTimeLabel(req: FastifyRequest, at: Date, zone: string, type: string): string {
  if (type === 'normal') return shopTranslator(req.shopLocale)('ticket.allday');
  return shopFormatters(req.shopLocale).time(at, zone);
}
