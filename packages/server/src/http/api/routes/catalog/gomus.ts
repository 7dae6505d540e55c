// go~mus read calls Atrium answers in go~mus shapes (docs/gomus-compatibility.md): the event
// calendar (also per event), a tour's price list, the event/tour categories and tag collections
// and the languages of the dates. Same access and caching as
// the neighbouring catalogue reads (common.ts); the rules live in the catalogue domain.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listCategories } from '../../../../domain/catalog/categories.ts';
import { getEventCalendar } from '../../../../domain/catalog/getEventCalendar.ts';
import { getEventCalendarOf } from '../../../../domain/catalog/getEventCalendarOf.ts';
import { listDateLanguages } from '../../../../domain/catalog/listDateLanguages.ts';
import { getTourPrices } from '../../../../domain/catalog/getTourPrices.ts';
import { TagFilters, CategoryRef, DateString, IdList, LanguageRef, ListQuery } from '../../schemas/catalog.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { datesReadConfig, readConfig } from './common.ts';

const tags = ['catalogue'];
const Seats = Type.Object({ max: Type.Integer(), booked: Type.Integer(), available: Type.Integer() });
const Translatable = Type.Union([Type.Null(), Type.String(), Type.Record(Type.String(), Type.Union([Type.Null(), Type.String()]))]);
const CalendarDate = Type.Object({
  id: Type.Integer(),
  event_id: Type.Integer(),
  title: Translatable,
  sub_title: Translatable,
  start_time: Type.String(),
  bookable: Type.Boolean(),
  seats: Seats,
});
const EventCalendar = Type.Object({
  data: Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Array(Type.Object({ date: CalendarDate }))]), {
    description: 'YYYY-MM-DD → whether a date can still be booked; with depth=all the dates of that day.',
  }),
});
const TourPrices = Type.Object({
  prices: Type.Array(Type.Object({ group: Type.Boolean(), optional: Type.Boolean(), price_cents: Type.Integer(), vat_pct: Type.Number() })),
  vat_pct: Type.Number(),
  discount: Type.Integer(),
  tax_included: Type.Boolean(),
});
const PricesQuery = Type.Object({
  date: Type.Optional(DateString),
  time: Type.Optional(Type.String({ pattern: '^\\d{2}[-:]\\d{2}$', description: 'HH-MM (go~mus); the price does not depend on it.' })),
  participants: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  language_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
});

/** The filters of GET /dates, shared by the calendars and /dates/languages. */
const DatesFilters = {
  q: ListQuery.q, locale: ListQuery.locale, by_museum_ids: ListQuery.by_museum_ids, ...TagFilters,
  start_at: Type.Optional(DateString), end_at: Type.Optional(DateString),
};
const CalendarQuery = {
  ...DatesFilters,
  depth: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all')], { description: '`any` (default): a boolean per day; `all`: the dates.' })),
};

/** go~mus tag collections Atrium has no records for: they answer the true, empty set. */
const EMPTY_TAGS = ['age_groups', 'audiences', 'catch_words', 'proposal_categories', 'grades'] as const;

export const gomusCatalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/calendar', {
    config: datesReadConfig,
    schema: {
      tags, summary: 'Per day whether an event date can be booked; depth=all lists the dates with seats (at most 366 days)', operationId: 'getEventCalendar',
      querystring: Type.Object({ ...CalendarQuery, by_event_ids: Type.Optional(IdList) }),
      response: { 200: EventCalendar, ...errorResponses(401, 422) },
    },
  }, async (req) => ({ data: Object.fromEntries(await getEventCalendar(req.ctx, req.query)) }));
  app.get('/events/:id/calendar', {
    config: datesReadConfig,
    schema: {
      tags, summary: 'go~mus (obsolete): GET /calendar?by_event_ids[]=:id', operationId: 'getEventCalendarOfEvent', params: IdParam,
      querystring: Type.Object(CalendarQuery),
      response: { 200: EventCalendar, ...errorResponses(401, 404, 422) },
    },
  }, async (req) => ({ data: Object.fromEntries(await getEventCalendarOf(req.ctx, { ...req.query, id: req.params.id })) }));
  app.get('/dates/languages', {
    config: datesReadConfig,
    schema: {
      tags, summary: 'Languages of the event dates GET /dates lists with the same filters', operationId: 'listDateLanguages',
      querystring: Type.Object({ ...DatesFilters, by_event_ids: Type.Optional(IdList) }),
      response: { 200: Type.Object({ languages: Type.Array(LanguageRef) }), ...errorResponses(401, 422) },
    },
  }, async (req) => ({ languages: await listDateLanguages(req.ctx, req.query) }));
  for (const of of ['events', 'tours'] as const) {
    app.get(`/${of}/categories`, {
      config: readConfig,
      schema: {
        tags, summary: `Categories of the ${of} the caller may see (go~mus; user tokens: all ${of.slice(0, -1)} categories)`,
        operationId: `list${of === 'events' ? 'Event' : 'Tour'}Categories`,
        response: { 200: Type.Object({ categories: Type.Array(CategoryRef) }), ...errorResponses(401) },
      },
    }, async (req) => ({ categories: await listCategories(req.ctx, { of }) }));
  }

  app.get('/tours/:id/prices', {
    config: readConfig,
    schema: {
      tags, summary: 'Price list of a tour (go~mus shape: one default price, per group or per person)', params: IdParam,
      querystring: PricesQuery, response: { 200: TourPrices, ...errorResponses(401, 404, 422) },
    },
  }, async (req) => getTourPrices(req.ctx, { id: req.params.id, date: req.query.date, participants: req.query.participants, language_id: req.query.language_id }));

  for (const of of ['events', 'tours'] as const) {
    for (const key of EMPTY_TAGS) {
      app.get(`/${of}/${key}`, {
        config: readConfig,
        schema: {
          tags, summary: `go~mus ${key.replace(/_/g, ' ')} of ${of}: Atrium keeps none, so always an empty list`,
          operationId: `list${of === 'events' ? 'Event' : 'Tour'}${key.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`,
          response: { 200: Type.Object({ [key]: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })) }), ...errorResponses(401) },
        },
      }, async () => ({ [key]: [] }));
    }
  }
};
