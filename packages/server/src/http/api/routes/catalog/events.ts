import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createEvent } from '../../../../domain/catalog/createEvent.ts';
import { createEventDate } from '../../../../domain/catalog/createEventDate.ts';
import { createRecurringEventDates } from '../../../../domain/catalog/createRecurringEventDates.ts';
import { getEvent } from '../../../../domain/catalog/getEvent.ts';
import { getEventDate } from '../../../../domain/catalog/getEventDate.ts';
import { listDates } from '../../../../domain/catalog/listDates.ts';
import { listEventDates } from '../../../../domain/catalog/listEventDates.ts';
import { listEvents, listEventsJson } from '../../../../domain/catalog/listEvents.ts';
import { updateEvent } from '../../../../domain/catalog/updateEvent.ts';
import { updateEventDate } from '../../../../domain/catalog/updateEventDate.ts';
import { TagFilters, DateString, Event, EventDate, Id, IdList, ListQuery, listOf, OneQuery, oneOf } from '../../schemas/catalog.ts';
import { EventBody, EventDateBody, EventDateCreateBody } from '../../schemas/catalogWrite.ts';
import { errorResponses, IdParam, PageQuery } from '../../schemas/common.ts';
import { datesReadConfig, listJson, readConfig, rowJson, unwrap, writeConfig } from './common.ts';

const Range = { date: Type.Optional(DateString), start_at: Type.Optional(DateString), end_at: Type.Optional(DateString) };
const DateParams = Type.Object({ event_id: Id, id: Id });
/** The answer to a recurrence: the dates created and the occurrences skipped, with why. */
const RecurringDates = Type.Object({
  dates: Type.Array(EventDate),
  skipped: Type.Array(Type.Object({ start_time: Type.String(), reason: Type.String() })),
});

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['catalogue'];
  app.get('/events', {
    config: readConfig,
    schema: {
      tags, summary: 'Events the caller may see',
      querystring: Type.Object({ ...ListQuery, by_exhibition_ids: Type.Optional(IdList), by_featured: Type.Optional(Type.Boolean()), ...TagFilters }),
      response: { 200: listOf('events', Event), ...errorResponses(401, 422) },
    },
  }, async (req, reply) => {
    const out = rowJson(req, reply, Event);
    if (out) return listJson(reply, 'events', await listEventsJson(req.ctx, req.query, out));
    const page = await listEvents(req.ctx, req.query);
    return { events: page.items, meta: page.meta };
  });
  app.get('/events/:id', {
    config: readConfig,
    schema: { tags, summary: 'One event', params: IdParam, querystring: OneQuery, response: { 200: oneOf('event', Event), ...errorResponses(401, 404, 422) } },
  }, async (req) => ({ event: await getEvent(req.ctx, { id: req.params.id, locale: req.query.locale }) }));
  app.get('/events/:id/dates', {
    config: datesReadConfig,
    schema: {
      tags, summary: 'Dates of an event: `date`, or start_at..end_at (at most 366 days; default today to end of month)', params: IdParam,
      querystring: Type.Object({ ...PageQuery, locale: ListQuery.locale, ...Range, by_language_ids: Type.Optional(IdList) }),
      response: { 200: listOf('dates', EventDate), ...errorResponses(401, 404, 422) },
    },
  }, async (req) => {
    const page = await listEventDates(req.ctx, { ...req.query, event_id: req.params.id });
    return { dates: page.items, meta: page.meta };
  });
  app.get('/events/:event_id/dates/:id', {
    config: datesReadConfig,
    schema: { tags, summary: 'One event date with its seats', params: DateParams, querystring: OneQuery, response: { 200: oneOf('date', EventDate), ...errorResponses(401, 404, 422) } },
  }, async (req) => ({ date: await getEventDate(req.ctx, { ...req.params, locale: req.query.locale }) }));
  app.get('/dates', {
    config: datesReadConfig,
    schema: {
      tags, summary: 'Event dates of every visible event (default today to end of month, instance zone)',
      querystring: Type.Object({ ...ListQuery, start_at: Range.start_at, end_at: Range.end_at, by_event_ids: Type.Optional(IdList), ...TagFilters }),
      response: { 200: listOf('dates', EventDate), ...errorResponses(401, 422) },
    },
  }, async (req) => {
    const page = await listDates(req.ctx, req.query);
    return { dates: page.items, meta: page.meta };
  });

  app.post('/events', {
    config: writeConfig, preValidation: unwrap('event'),
    schema: { tags, summary: 'Create an event (staff)', body: EventBody, response: { 201: oneOf('event', Event), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ event: await createEvent(req.ctx, req.body) }));
  app.put('/events/:id', {
    config: writeConfig, preValidation: unwrap('event'),
    schema: { tags, summary: 'Change an event (staff)', params: IdParam, body: EventBody, response: { 200: oneOf('event', Event), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ event: await updateEvent(req.ctx, { ...req.body, id: req.params.id }) }));
  app.post('/events/:id/dates', {
    config: writeConfig, preValidation: unwrap('date'),
    schema: {
      tags, summary: 'Add a date to an event, or with `recurrence` every date of an RRULE, skipping closed days (staff)', params: IdParam, body: EventDateCreateBody,
      response: { 201: Type.Union([oneOf('date', EventDate), RecurringDates]), ...errorResponses(400, 401, 403, 404, 415, 422) },
    },
  }, async (req, reply) => {
    const { recurrence, ...single } = req.body;
    const event_id = req.params.id;
    // Views are plain records (domain/catalog/views.ts); the response schema serialises them.
    if (recurrence) {
      const { dates, skipped } = await createRecurringEventDates(req.ctx, { ...single, recurrence, event_id });
      return reply.code(201).send({ dates, skipped });
    }
    return reply.code(201).send({ date: await createEventDate(req.ctx, { ...single, event_id }) });
  });
  app.put('/events/:event_id/dates/:id', {
    config: writeConfig, preValidation: unwrap('date'),
    schema: { tags, summary: 'Change an event date (staff); seats never below those booked', params: DateParams, body: EventDateBody, response: { 200: oneOf('date', EventDate), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ date: await updateEventDate(req.ctx, { ...req.body, ...req.params }) }));
};
