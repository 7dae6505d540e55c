// Box-office sale: choose ticket and date (GET), then slot, quantity, optional customer, payment
// method and delivery (POST). The form carries a fresh idempotency key, so a double click makes
// one order; afterwards the order page shows the ticket PDF to print.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { deskSlots, deskTickets } from '../../../domain/staff/deskSlots.ts';
import { sellAtDesk } from '../../../domain/staff/sellAtDesk.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

export const salePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/sale', action: 'sale.create' }, async (req, reply) => {
    const ticketId = intParam(field(req.query, 'ticket', 12));
    const date = field(req.query, 'date', 10);
    const tickets = await deskTickets(req.staffCtx, req.consoleLocale);
    const chosen = ticketId !== null ? tickets.find((t) => t.id === ticketId) ?? null : null;
    const slots = chosen ? await deskSlots(req.staffCtx, { ticketId: chosen.id, ...(date ? { date } : {}) }) : null;
    return renderPage(req, reply, 'sale', {
      title: translator(req.consoleLocale)('sale.title'),
      tickets, chosen, slots, date: slots?.date ?? date, key: randomUUID(),
    });
  });

  consoleRoute(app, { method: 'POST', url: '/sale', action: 'sale.create' }, async (req, reply) => {
    const b = req.body;
    const surname = field(b, 'surname', 100);
    const email = field(b, 'email', 254);
    const { order } = await sellAtDesk(req.staffCtx, {
      key: field(b, 'key', 64),
      ticketId: intParam(field(b, 'ticket', 12)) ?? 0,
      time: field(b, 'slot', 40),
      quantity: Number(field(b, 'quantity', 4) || 'NaN'),
      payment: field(b, 'payment', 10),
      delivery: field(b, 'delivery', 10),
      ...(surname || email ? { customer: { name: field(b, 'name', 100), surname, email } } : {}),
    });
    return seeOther(reply, `/console/orders/${order.id}`, 'sold');
  });
};
