// The OCTO endpoint for distribution platforms (docs/octo.md), registered under /octo: a
// transport over the same domain verbs as the go~mus API (catalogue visibility, availability,
// orders and their holds). Reseller tokens only; OCTO's error shape on every answer of these
// routes, including refusals made before the handler (token, access, rate limit).
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { listBookableTickets, bookableTicket } from '../../domain/availability/getTicketSlots.ts';
import { museumTitles } from '../../domain/staff/labels.ts';
import { CAPABILITIES, appliedHeader, requested } from './capabilities.ts';
import { OctoError, invalidProduct, sendOcto } from './errors.ts';
import { contentLanguage } from './language.ts';
import { productOf } from './products.ts';
import { hidden, routeConfig, viewOf } from './common.ts';
import { calendar, check, ticketOfRequest } from './availability.ts';
import { ticketIdOf } from './ids.ts';
import { bookingRoutes } from './bookings.ts';
import { offerCalendar, offerCheck, offerOf, offerOfRequest, offerProduct, offerProducts } from './offer-routes.ts';
import { offerIdOf } from './offers.ts';
import { named } from '../plugin-name.ts';

export async function octoRoutes(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof OctoError) return sendOcto(req, reply, err);
    if (err instanceof DomainError) return sendOcto(req, reply, err);
    // Framework refusals (body not JSON, wrong media type, too large): the request is at fault.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendOcto(req, reply, new OctoError('BAD_REQUEST', err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'request body is too large' : 'request body is not valid JSON'));
    }
    req.log.error({ err }, 'unhandled error');
    return sendOcto(req, reply, new OctoError('INTERNAL_SERVER_ERROR', 'internal server error'));
  });
  // The capabilities applied, and with content the language answered in and those offered.
  app.addHook('onSend', async (req, reply, payload) => {
    const applied = requested(req);
    reply.header('octo-capabilities', appliedHeader(applied));
    if (applied.content && req.ctx) {
      reply.header('content-language', contentLanguage(req, req.ctx.config.locales));
      reply.header('available-languages', req.ctx.config.locales.join(', '));
    }
    return payload;
  });

  const supplier = async (req: FastifyRequest) => {
    const v = viewOf(req);
    const museums = [...(await museumTitles(req.ctx.db, v.lang)).values()];
    return {
      id: 'atrium',
      name: museums[0]?.title || 'Atrium',
      endpoint: `${req.protocol}://${req.host}/octo`,
      contact: { website: null, email: null, telephone: null, address: null },
      ...(v.applied.content ? { shortDescription: museums.map((m) => m.title).join(', ') || null, media: [] } : {}),
    };
  };
  const config = routeConfig;
  const schema = hidden;
  app.get('/supplier', { config, schema }, supplier);
  app.get('/suppliers', { config, schema }, async (req) => [await supplier(req)]);
  app.get('/suppliers/:id', { config, schema }, supplier);
  app.get('/capabilities', { config, schema }, async () => CAPABILITIES);

  app.get('/products', { config, schema }, async (req) => {
    const v = viewOf(req);
    return [...(await listBookableTickets(req.ctx)).map((t) => productOf(t, v)), ...(await offerProducts(req, v))];
  });
  app.get<{ Params: { id: string } }>('/products/:id', { config, schema }, async (req) => {
    const o = await offerOf(req, req.params.id);
    const p = o ? await offerProduct(req, o, viewOf(req)) : null;
    if (p) return p;
    const ticketId = ticketIdOf(req.params.id);
    const t = ticketId === null ? null : await bookableTicket(req.ctx, ticketId);
    if (!t) throw invalidProduct(req.params.id);
    return productOf(t, viewOf(req));
  });

  const bookable = (req: FastifyRequest) => (id: number) => bookableTicket(req.ctx, id);
  const body = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {});
  app.post('/availability/calendar', { config, schema }, async (req) => {
    const b = body(req);
    if (offerIdOf(b.productId)) return offerCalendar(req, (await offerOfRequest(req, b)).o, b, viewOf(req));
    const t = await ticketOfRequest(b, bookable(req));
    return calendar(req, t, b, viewOf(req));
  });
  app.post('/availability', { config, schema }, async (req) => {
    const b = body(req);
    if (offerIdOf(b.productId)) return offerCheck(req, (await offerOfRequest(req, b)).o, b, viewOf(req));
    const t = await ticketOfRequest(b, bookable(req));
    return check(req, t, b, viewOf(req));
  });

  await app.register(named(bookingRoutes));
}

