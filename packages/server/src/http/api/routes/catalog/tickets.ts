import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createTicket } from '../../../../domain/catalog/createTicket.ts';
import { getTicket } from '../../../../domain/catalog/getTicket.ts';
import { listTickets, listTicketsJson } from '../../../../domain/catalog/listTickets.ts';
import { listTicketContent } from '../../../../domain/catalog/ticketContent.ts';
import { updateTicket } from '../../../../domain/catalog/updateTicket.ts';
import { DateString, IdList, ListQuery, LocaleQuery, listOf, oneOf, Ticket } from '../../schemas/catalog.ts';
import { ListMeta } from '../../schemas/common.ts';
import { TicketBody } from '../../schemas/catalogWrite.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { listJson, readConfig, rowJson, unwrap, writeConfig } from './common.ts';

// go~mus filters by `annual` too (annual tickets are listed only when asked for). Atrium sells no
// annual tickets, so that filter answers the empty set instead of refusing a valid go~mus query.
const TicketType = Type.String({ enum: ['time_slot', 'normal', 'annual'] });

export const ticketRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['catalogue'];
  app.get('/tickets', {
    config: readConfig,
    schema: {
      tags, summary: 'Tickets the caller may see, valid on valid_at (default today)',
      querystring: Type.Object({
        ...ListQuery,
        by_ticket_ids: Type.Optional(IdList),
        by_exhibition_ids: Type.Optional(IdList),
        by_ticket_type: Type.Optional(TicketType),
        by_bookable: Type.Optional(Type.Boolean()),
        by_free_timing: Type.Optional(Type.Boolean({ description: 'true: only tickets without time slots (day tickets); false: only time-slot tickets.' })),
        valid_at: Type.Optional(DateString),
      }),
      response: { 200: listOf('tickets', Ticket), ...errorResponses(401, 422) },
    },
  }, async (req, reply) => {
    const input = { ...req.query, by_ticket_type: req.query.by_ticket_type as 'normal' | 'annual' | undefined };
    const out = rowJson(req, reply, Ticket);
    if (out) return listJson(reply, 'tickets', await listTicketsJson(req.ctx, input, out));
    const page = await listTickets(req.ctx, input);
    return { tickets: page.items, meta: page.meta };
  });
  app.get('/tickets/content', {
    config: readConfig,
    schema: {
      tags, summary: 'go~mus: the content of tickets (always empty: Atrium keeps no CMS content)',
      querystring: Type.Object({
        ticket_ids: IdList,
        attr: Type.Optional(Type.String({ maxLength: 100, description: 'go~mus: one content attribute; accepted, the content is empty either way.' })),
        locale: ListQuery.locale, page: ListQuery.page, per_page: ListQuery.per_page,
      }),
      response: { 200: Type.Object({ data: Type.Array(Type.Object({ id: Type.Integer(), content: Type.Object({}) })), meta: ListMeta }), ...errorResponses(401, 422) },
    },
  }, async (req) => {
    const page = await listTicketContent(req.ctx, req.query);
    return { data: page.items, meta: page.meta };
  });
  app.get('/tickets/:id', {
    config: readConfig,
    schema: {
      tags, summary: 'One ticket', params: IdParam,
      querystring: Type.Object({ locale: LocaleQuery, valid_at: Type.Optional(DateString) }),
      response: { 200: oneOf('ticket', Ticket), ...errorResponses(401, 404, 422) },
    },
  }, async (req) => ({ ticket: await getTicket(req.ctx, { id: req.params.id, ...req.query }) }));
  app.post('/tickets', {
    config: writeConfig, preValidation: unwrap('ticket'),
    schema: { tags, summary: 'Create a ticket (staff)', body: TicketBody, response: { 201: oneOf('ticket', Ticket), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ ticket: await createTicket(req.ctx, req.body) }));
  app.put('/tickets/:id', {
    config: writeConfig, preValidation: unwrap('ticket'),
    schema: { tags, summary: 'Change a ticket (staff); quota_ids replaces its quotas', params: IdParam, body: TicketBody, response: { 200: oneOf('ticket', Ticket), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ ticket: await updateTicket(req.ctx, { ...(req.body as object), id: req.params.id }) }));
};
