// Schedules (docs/api-contract.md §13): closures, a museum's opening hours (weekly, seasons, exceptions) and
// capacity overrides per date and slot. Staff only (user tokens with catalog:write); the verbs
// live in domain/schedules. Writes clear this node's answer cache (invalidatesCatalog).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { sendPendingRefunds } from '../../../../domain/payments/refunds.ts';
import { paymentProviders } from '../../../../providers/payments/index.ts';
import { createClosure } from '../../../../domain/schedules/createClosure.ts';
import { getSchedule, setSchedule } from '../../../../domain/schedules/openingHours.ts';
import { deleteClosure, getClosure, listClosures } from '../../../../domain/schedules/readClosures.ts';
import { setCapacities } from '../../../../domain/schedules/setCapacities.ts';
import { DateString, listOf } from '../../schemas/catalog.ts';
import { errorResponses, IdList, IdParam, PageQuery } from '../../schemas/common.ts';
import { unwrap } from '../../unwrap.ts';
import { Affected, Capacities, CapacitiesBody, Closure, ClosureBody, Schedule, ScheduleBody } from './schemas.ts';

const staff = tokenOnly(['user'], ['catalog', 'write']);
const write = { access: staff, invalidatesCatalog: true };
const read = { access: staff };

export const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['schedules'];
  app.get('/closures', {
    config: read,
    schema: {
      tags, summary: 'Closures in the caller scope (staff)',
      querystring: Type.Object({ ...PageQuery, by_museum_ids: Type.Optional(IdList), from: Type.Optional(DateString), to: Type.Optional(DateString) }),
      response: { 200: listOf('closures', Closure), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const page = await listClosures(req.ctx, req.query);
    return { closures: page.items, meta: page.meta };
  });
  app.post('/closures', {
    config: write, preValidation: unwrap('closure'),
    schema: {
      tags, summary: 'Close a period of a museum or of some of its products (staff)', body: ClosureBody,
      response: { 201: Type.Object({ closure: Closure, affected: Affected }), ...errorResponses(400, 401, 403, 404, 415, 422) },
    },
  }, async (req, reply) => {
    const r = await createClosure(req.ctx, req.body);
    // After the commit: refunds for the paid items it cancelled go to their providers.
    if (req.body.cancel_orders === true) await sendPendingRefunds(req.ctx, paymentProviders(req.ctx.config), r.affected.order_ids);
    reply.code(201);
    return r;
  });
  app.get('/closures/:id', {
    config: read,
    schema: { tags, summary: 'One closure with the live orders it covers (staff)', params: IdParam, response: { 200: Type.Object({ closure: Closure, affected: Affected }), ...errorResponses(401, 403, 404, 422) } },
  }, async (req) => getClosure(req.ctx, req.params.id));
  app.delete('/closures/:id', {
    config: write,
    schema: { tags, summary: 'Reopen a closed period (staff); cancelled orders stay cancelled', params: IdParam, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) } },
  }, async (req, reply) => {
    await deleteClosure(req.ctx, req.params.id);
    reply.code(204);
    return null;
  });
  app.get('/museums/:id/schedule', {
    config: read,
    schema: { tags, summary: 'Weekly opening hours, seasons and date exceptions of a museum (staff)', params: IdParam, response: { 200: Type.Object({ schedule: Schedule }), ...errorResponses(401, 403, 404, 422) } },
  }, async (req) => ({ schedule: await getSchedule(req.ctx, req.params.id) }));
  app.put('/museums/:id/schedule', {
    config: write, preValidation: unwrap('schedule'),
    schema: {
      tags, summary: 'Set weekly hours, seasons and/or date exceptions (each part given replaces the stored one)', params: IdParam, body: ScheduleBody,
      response: { 200: Type.Object({ schedule: Schedule }), ...errorResponses(400, 401, 403, 404, 415, 422) },
    },
  }, async (req) => ({ schedule: await setSchedule(req.ctx, req.params.id, req.body) }));
  app.put('/quotas/:id/capacities', {
    config: write,
    schema: {
      tags, summary: 'Capacity overrides per date or per slot (staff); answers what is oversold', params: IdParam, body: CapacitiesBody,
      response: { 200: Capacities, ...errorResponses(400, 401, 403, 404, 415, 422) },
    },
  }, async (req) => setCapacities(req.ctx, { id: req.params.id, capacities: req.body.capacities }));
};
