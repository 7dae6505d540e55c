// Reservations (holds) on ticket slots and event dates (docs/api-contract.md §6). Reseller tokens and user
// tokens with orders:write; each account sees only its own holds. Mounted at /reservations and at
// the go~mus path /tickets/reservations.
import { unwrap } from '../../unwrap.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tokenOnly } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ReservationEnvelope, ReservationInput, ReservationParam, ReservationUpdate } from '../../schemas/reservations.ts';
import { createReservation } from '../../../../domain/reservations/createReservation.ts';
import { deleteReservation } from '../../../../domain/reservations/deleteReservation.ts';
import { updateReservation } from '../../../../domain/reservations/updateReservation.ts';
import type { ReservationView } from '../../../../domain/reservations/view.ts';
import { isoInZone } from '../../../../domain/time.ts';

const write = tokenOnly(['user', 'reseller'], ['orders', 'write']);
const tags = ['reservations'];

function serialize(v: ReservationView) {
  return {
    reservation: {
      reservation_token: v.token,
      token: v.token,
      ...(v.ticketId !== null ? { ticket_id: v.ticketId } : {}),
      ...(v.dateId !== null ? { date_id: v.dateId } : {}),
      quantity: v.quantity,
      start_at: isoInZone(v.startAt, v.zone),
      valid_until: isoInZone(v.validUntil, v.zone),
      ...(v.priceCents !== undefined ? { price_cents: v.priceCents } : {}),
      ...(v.discounts ? { discounts: v.discounts.map((d) => ({ code: d.code, amount_cents: d.amountCents })) } : {}),
    },
  };
}

export const reservationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const base of ['/reservations', '/tickets/reservations']) {
    app.post(
      base,
      {
        config: { access: write, cache: 'live' },
        preValidation: unwrap('reservation'),
        schema: {
          tags,
          summary: 'Hold capacity of a ticket slot or an event date for a short time',
          body: ReservationInput,
          response: { 201: ReservationEnvelope, ...errorResponses(400, 401, 403, 409, 415, 422) },
        },
      },
      async (req, reply) => {
        const b = req.body;
        const view = await createReservation(req.ctx, { ticketId: b.ticket_id, dateId: b.date_id, quantity: b.quantity, startAt: b.start_at, codes: b.codes });
        reply.code(201);
        return serialize(view);
      },
    );

    app.put(
      `${base}/:reservation_token`,
      {
        config: { access: write, cache: 'live' },
        preValidation: unwrap('reservation'),
        schema: {
          tags,
          summary: 'Change the quantity of a hold and restart its validity (up to the lifetime cap)',
          params: ReservationParam,
          body: ReservationUpdate,
          response: { 200: ReservationEnvelope, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
        },
      },
      async (req) => serialize(await updateReservation(req.ctx, { token: req.params.reservation_token, quantity: req.body.quantity })),
    );

    app.delete(
      `${base}/:reservation_token`,
      {
        config: { access: write, cache: 'live' },
        schema: {
          tags,
          summary: 'Release a hold at once',
          params: ReservationParam,
          response: { 204: { type: 'null', description: 'Released.' }, ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) => {
        await deleteReservation(req.ctx, { token: req.params.reservation_token });
        return reply.code(204).send(null);
      },
    );
  }
};
