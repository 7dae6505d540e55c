// OCTO booking routes (docs/octo.md): reserve → confirm → cancel (and DELETE), extend, PATCH, get
// and list, over the domain's OCTO booking verbs (domain/octo), which are orders and holds of the
// reseller's account. Refusals become OCTO codes here; an unknown uuid, another reseller's
// booking and an expired hold are the same INVALID_BOOKING_UUID.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bookableTicket } from '../../domain/availability/getTicketSlots.ts';
import type { TicketRow } from '../../domain/capacity/catalog.ts';
import { DomainError } from '../../domain/errors.ts';
import { cancelOctoBooking } from '../../domain/octo/cancel.ts';
import { confirmOctoBooking } from '../../domain/octo/confirm.ts';
import { extendOctoBooking } from '../../domain/octo/extend.ts';
import type { OctoBooking, OctoTarget, OctoUnitItemRecord } from '../../domain/octo/internal.ts';
import { getOctoBooking, listOctoBookings } from '../../domain/octo/read.ts';
import { reserveOctoBooking } from '../../domain/octo/reserve.ts';
import { changeOctoBooking } from '../../domain/octo/update.ts';
import { isValidDate } from '../../domain/time.ts';
import { ticketOfRequest, slotOf } from './availability.ts';
import { bookingOf, ticketShape } from './booking-json.ts';
import { offerOf, offerOfRequest, offerShape, offerStartOf } from './offer-routes.ts';
import { offerIdOf, type OfferRow } from './offers.ts';
import { badRequest, fromDomain, invalidAvailability, invalidUnit, unprocessable } from './errors.ts';
import { OPTION_ID, ticketIdOf, unitIdOf } from './ids.ts';
import { hidden, routeConfig, viewOf } from './common.ts';

type Body = Record<string, unknown>;
type UuidParams = { Params: { uuid: string } };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const bodyOf = (req: FastifyRequest): Body => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Body) : {});
const text = (v: unknown, name: string): string | null | undefined => {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string' || v.length > 1000) throw badRequest(`${name} must be a string of at most 1000 characters`);
  return v;
};

function uuidOf(v: unknown): string {
  if (v === undefined || v === null) return randomUUID();
  if (typeof v !== 'string' || !UUID.test(v.toLowerCase())) throw badRequest('uuid must be a UUID');
  return v.toLowerCase();
}

function contactIn(v: unknown): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest('contact must be an object');
  const c = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(c)) {
    if (k === 'locales') { if (!Array.isArray(x)) throw badRequest('contact.locales must be a list'); continue; }
    if (x !== null && x !== undefined && (typeof x !== 'string' || x.length > 500)) throw badRequest(`contact.${k} must be a string`);
  }
  if (typeof c.emailAddress === 'string' && c.emailAddress !== '' && !EMAIL.test(c.emailAddress)) throw badRequest('contact.emailAddress is not an e-mail address');
  return c;
}

/** What a booking sells: a ticket, or an event or tour (offers.ts). */
type Sold = { kind: 'Ticket'; t: TicketRow } | { kind: 'Offer'; o: OfferRow };
const unitOfSold = (s: Sold) => (s.kind === 'Ticket' ? unitIdOf(s.t) : unitIdOf(s.o));

/** unitItems as sent: a non-empty list of this product's unit (UNPROCESSABLE_ENTITY when empty). */
function unitItemsIn(v: unknown, sold: Sold, required: boolean): OctoUnitItemRecord[] | undefined {
  if (v === undefined && !required) return undefined;
  if (!Array.isArray(v) || v.length === 0) throw unprocessable('unitItems must list at least one unit');
  if (v.length > 1000) throw unprocessable('too many unitItems');
  const seen = new Set<string>();
  return v.map((u: unknown) => {
    const x = (u && typeof u === 'object' ? u : {}) as Record<string, unknown>;
    if (x.unitId !== unitOfSold(sold)) throw invalidUnit(typeof x.unitId === 'string' ? x.unitId : '');
    let uuid = uuidOf(x.uuid);
    if (seen.has(uuid)) uuid = randomUUID();
    seen.add(uuid);
    return { uuid, unitId: x.unitId, resellerReference: text(x.resellerReference, 'resellerReference') ?? null };
  });
}

function minutes(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 7 * 24 * 60) throw badRequest('expirationMinutes must be a whole number of minutes');
  return v as number;
}

/** The product, option and availability a body names, checked in that order. */
async function targetOf(req: FastifyRequest, b: Body): Promise<{ sold: Sold; target: OctoTarget }> {
  const availabilityId = typeof b.availabilityId === 'string' ? b.availabilityId : '';
  if (offerIdOf(b.productId)) {
    const { o, languageId } = await offerOfRequest(req, b);
    const s = await offerStartOf(req, o, b.availabilityId);
    if (!s) throw invalidAvailability(availabilityId);
    const id = o.kind === 'Event' ? s.eventDateId! : o.id;
    return { sold: { kind: 'Offer', o }, target: { productId: b.productId as string, optionId: b.optionId as string, availabilityId, kind: o.kind, id, languageId, time: s.start.toISOString() } };
  }
  const t = await ticketOfRequest(b, (id) => bookableTicket(req.ctx, id));
  const found = await slotOf(req, t, b.availabilityId);
  if (!found) throw invalidAvailability(availabilityId);
  return { sold: { kind: 'Ticket', t }, target: { productId: b.productId as string, optionId: OPTION_ID, availabilityId, kind: 'Ticket', id: t.id, time: found.time } };
}

async function soldOfBooking(req: FastifyRequest, b: OctoBooking): Promise<Sold | null> {
  const o = await offerOf(req, b.record.productId);
  if (o) return { kind: 'Offer', o };
  const id = ticketIdOf(b.record.productId);
  const t = id === null ? null : await bookableTicket(req.ctx, id);
  return t ? { kind: 'Ticket', t } : null;
}

async function answer(req: FastifyRequest, b: OctoBooking) {
  const v = viewOf(req);
  const sold = await soldOfBooking(req, b);
  const shape = !sold ? null : sold.kind === 'Ticket' ? await ticketShape(req, b, sold.t, v) : await offerShape(req, b, sold.o, v);
  return bookingOf(req, b, shape, v);
}

/** Domain refusals of a booking route in OCTO terms (unknown, foreign or expired → the uuid). */
async function onBooking<T>(uuid: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw err instanceof DomainError ? fromDomain(err, uuid) : err;
  }
}

const testMode = (req: FastifyRequest) => String(req.headers['octo-env'] ?? '').trim().toLowerCase() === 'test';

export async function bookingRoutes(app: FastifyInstance) {
  const config = routeConfig;
  const schema = hidden;

  app.post('/bookings', { config, schema }, async (req) => {
    const b = bodyOf(req);
    const uuid = uuidOf(b.uuid);
    const { sold, target } = await targetOf(req, b);
    const unitItems = unitItemsIn(b.unitItems, sold, true)!;
    const booking = await onBooking(uuid, () =>
      reserveOctoBooking(req.ctx, {
        uuid, target, unitItems,
        notes: text(b.notes, 'notes') ?? null,
        resellerReference: text(b.resellerReference, 'resellerReference') ?? null,
        contact: contactIn(b.contact) ?? {},
        testMode: testMode(req),
        expirationMinutes: minutes(b.expirationMinutes),
      }),
    );
    return answer(req, booking);
  });

  app.post<UuidParams>('/bookings/:uuid/confirm', { config, schema }, async (req) => {
    const uuid = req.params.uuid;
    const b = bodyOf(req);
    // The booking is read first only when unit items must be checked against its product.
    let unitItems: OctoUnitItemRecord[] | undefined;
    if (b.unitItems !== undefined) {
      const sold = await soldOfBooking(req, await onBooking(uuid, () => getOctoBooking(req.ctx, uuid)));
      if (!sold) throw unprocessable('the product of this booking is no longer sold');
      unitItems = unitItemsIn(b.unitItems, sold, false);
    }
    const booking = await onBooking(uuid, () =>
      confirmOctoBooking(req.ctx, uuid, { contact: contactIn(b.contact) ?? {}, resellerReference: text(b.resellerReference, 'resellerReference'), unitItems }),
    );
    return answer(req, booking);
  });

  app.post<UuidParams>('/bookings/:uuid/extend', { config, schema }, async (req) => {
    const uuid = req.params.uuid;
    const b = bodyOf(req);
    return answer(req, await onBooking(uuid, () => extendOctoBooking(req.ctx, uuid, { expirationMinutes: minutes(b.expirationMinutes) })));
  });

  app.patch<UuidParams>('/bookings/:uuid', { config, schema }, async (req) => {
    const uuid = req.params.uuid;
    const b = bodyOf(req);
    const current = await onBooking(uuid, () => getOctoBooking(req.ctx, uuid));
    const moves = b.productId !== undefined || b.optionId !== undefined || b.availabilityId !== undefined;
    const merged = { productId: current.record.productId, optionId: current.record.optionId, availabilityId: current.record.availabilityId, ...b };
    const { sold, target } = moves ? await targetOf(req, merged) : { sold: await soldOfBooking(req, current), target: undefined };
    if (!sold) throw unprocessable('the product of this booking is no longer sold');
    const booking = await onBooking(uuid, () =>
      changeOctoBooking(req.ctx, uuid, {
        target,
        unitItems: unitItemsIn(b.unitItems, sold, false),
        notes: text(b.notes, 'notes'),
        resellerReference: text(b.resellerReference, 'resellerReference'),
        contact: contactIn(b.contact),
        expirationMinutes: minutes(b.expirationMinutes),
      }),
    );
    return answer(req, booking);
  });

  const cancel = async (req: FastifyRequest<UuidParams>) => {
    const uuid = req.params.uuid;
    const b = bodyOf(req);
    return answer(req, await onBooking(uuid, () => cancelOctoBooking(req.ctx, uuid, { reason: text(b.reason, 'reason') })));
  };
  app.post<UuidParams>('/bookings/:uuid/cancel', { config, schema }, cancel);
  app.delete<UuidParams>('/bookings/:uuid', { config, schema }, cancel);

  app.get<UuidParams>('/bookings/:uuid', { config, schema }, async (req) => answer(req, await onBooking(req.params.uuid, () => getOctoBooking(req.ctx, req.params.uuid))));

  app.get<{ Querystring: Record<string, unknown> }>('/bookings', { config, schema }, async (req) => {
    const q = req.query;
    const str = (k: string) => (typeof q[k] === 'string' && q[k] !== '' ? (q[k] as string) : undefined);
    const resellerReference = str('resellerReference');
    const supplierReference = str('supplierReference');
    const localDate = str('localDate');
    const start = str('localDateStart') ?? localDate;
    const end = str('localDateEnd') ?? localDate;
    if (!resellerReference && !supplierReference && !(start && end)) {
      throw badRequest('give resellerReference, supplierReference, localDate, or localDateStart with localDateEnd');
    }
    if ((start && !isValidDate(start)) || (end && !isValidDate(end))) throw badRequest('dates must be YYYY-MM-DD');
    const orderId = supplierReference === undefined ? undefined : /^[1-9]\d{0,9}$/.test(supplierReference) ? Number(supplierReference) : -1;
    const list = await listOctoBookings(req.ctx, {
      resellerReference,
      orderId,
      ...(start && end ? { localDateStart: start, localDateEnd: end } : {}),
      zone: req.ctx.config.zone,
    });
    return Promise.all(list.map((b) => answer(req, b)));
  });

}
