// The cart: putting places in it holds them (createReservation, the same verb and limits as a
// reseller's holds); the cart page shows the time left, offers one extension (updateReservation
// restarts the hold, never beyond its lifetime cap) and lets a line go (deleteReservation frees
// its places at once). A hold that runs out frees its places by time alone: the cart then says
// so and drops the line. Tours cannot be held; their line is checked when the order is placed.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createReservation } from '../../../domain/reservations/createReservation.ts';
import { deleteReservation } from '../../../domain/reservations/deleteReservation.ts';
import { updateReservation } from '../../../domain/reservations/updateReservation.ts';
import { DomainError, invalid } from '../../../domain/errors.ts';
import type { ReservationView } from '../../../domain/reservations/view.ts';
import { cartExpiry, MAX_LINES, newCart, placesIn, readCart, writeCart, type Cart, type CartLine, type HoldLine } from '../cart.ts';
import { describeLines } from '../lines.ts';
import { shopTranslator } from '../i18n.ts';
import { field, intParam, quantityParam } from '../kit.ts';
import type { ShopLimiter } from '../limits.ts';
import { categoriesOf, eventDateOf, ticketOf, tourOf } from '../offers.ts';
import { renderPage, seeOther } from '../render.ts';
import { visitorId } from '../security.ts';
import { getTourStartTimes } from '../../../domain/availability/getTourStartTimes.ts';

const holdLine = (kind: 'ticket' | 'event', id: number, v: ReservationView): HoldLine => ({
  kind, id, token: v.token, quantity: v.quantity, start: v.startAt.toISOString(), until: v.validUntil.toISOString(),
});

/** The cart to add to: a cart that already became an order starts over. */
function openCart(req: FastifyRequest): Cart {
  const cart = readCart(req);
  return cart.order ? newCart() : cart;
}

export const cartRoutes = (limiter: ShopLimiter): FastifyPluginAsync => async (app) => {
  async function admit(req: FastifyRequest, reply: FastifyReply, cart: Cart, adding: CartLine[] | number) {
    await limiter.take(visitorId(req, reply), req.ip);
    const t = shopTranslator(req.shopLocale);
    const places = typeof adding === 'number' ? adding : adding.reduce((s, l) => s + l.quantity, 0);
    const lines = typeof adding === 'number' ? 1 : adding.length;
    if (cart.lines.length + lines > MAX_LINES || placesIn(cart) + places > limiter.limits.placesPerCart) {
      throw invalid(t('cart.full'), [t('cart.full.detail', { places: limiter.limits.placesPerCart, lines: MAX_LINES })]);
    }
  }

  app.get('/cart', { schema: { hide: true } }, async (req, reply) => {
    let cart = readCart(req);
    if (cart.order) return seeOther(reply, `/shop/orders/${cart.order}`);
    const now = req.shopCtx.clock.now();
    const lapsed = cart.lines.filter((l) => l.kind !== 'tour' && new Date(l.until) <= now);
    if (lapsed.length) {
      cart = { ...cart, lines: cart.lines.filter((l) => !lapsed.includes(l)) };
      writeCart(req, reply, cart);
    }
    const expiry = cartExpiry(cart);
    const lines = await describeLines(req.readCtx, cart.lines, req.shopLocale);
    return renderPage(req, reply, 'cart', {
      title: shopTranslator(req.shopLocale)('cart.title'), lines, lapsed: lapsed.length > 0, expiry,
      secondsLeft: expiry ? Math.max(0, Math.floor((expiry.getTime() - now.getTime()) / 1000)) : null,
      canExtend: expiry !== null && !cart.extended,
    });
  });

  app.post('/cart/tickets', { schema: { hide: true } }, async (req, reply) => {
    const b = req.body;
    const t = shopTranslator(req.shopLocale);
    const ticket = await ticketOf(req.readCtx, intParam(field(b, 'ticket', 12)) ?? 0, req.shopLocale);
    const slot = field(b, 'slot', 40);
    if (!slot) throw invalid(t('ticket.noslot'), [t('ticket.noslot')]);
    // Only the categories this page offered count; a field naming another ticket is ignored.
    const wanted: Array<{ id: number; quantity: number }> = [];
    const problems: string[] = [];
    for (const c of await categoriesOf(req.readCtx, ticket, req.shopLocale)) {
      const q = quantityParam(field(b, `q_${c.id}`, 4));
      if (q === null) problems.push(t('qty.number', { title: c.title }));
      else if (q > 0 && (q < c.min_persons || q > c.max_persons)) problems.push(t('qty.range', { title: c.title, min: c.min_persons, max: c.max_persons }));
      else if (q > 0) wanted.push({ id: c.id, quantity: q });
    }
    if (!problems.length && !wanted.length) problems.push(t('qty.none'));
    if (problems.length) throw invalid(t('qty.invalid'), problems);
    const cart = openCart(req);
    await admit(req, reply, cart, wanted.reduce((s, w) => s + w.quantity, 0));
    // All categories or none: a refused hold releases the ones this request made.
    const made: HoldLine[] = [];
    try {
      for (const w of wanted) made.push(holdLine('ticket', w.id, await createReservation(req.shopCtx, { ticketId: w.id, quantity: w.quantity, startAt: slot })));
    } catch (err) {
      for (const m of made) await deleteReservation(req.shopCtx, { token: m.token }).catch(() => undefined);
      throw err;
    }
    writeCart(req, reply, { ...cart, lines: [...cart.lines, ...made] });
    return seeOther(reply, '/shop/cart');
  });

  app.post('/cart/events', { schema: { hide: true } }, async (req, reply) => {
    const b = req.body;
    const t = shopTranslator(req.shopLocale);
    const date = await eventDateOf(req.readCtx, intParam(field(b, 'date', 12)) ?? 0, req.shopLocale);
    const q = quantityParam(field(b, 'quantity', 4));
    const max = date.seats.max_per_registration ?? date.seats.max;
    if (q === null || q < 1 || q > max) throw invalid(t('qty.invalid'), [t('qty.range', { title: date.title, min: 1, max })]);
    const cart = openCart(req);
    await admit(req, reply, cart, q);
    const v = await createReservation(req.shopCtx, { dateId: date.id, quantity: q });
    writeCart(req, reply, { ...cart, lines: [...cart.lines, holdLine('event', date.id, v)] });
    return seeOther(reply, '/shop/cart');
  });

  app.post('/cart/tours', { schema: { hide: true } }, async (req, reply) => {
    const b = req.body;
    const t = shopTranslator(req.shopLocale);
    const tour = await tourOf(req.readCtx, intParam(field(b, 'tour', 12)) ?? 0, req.shopLocale);
    const q = quantityParam(field(b, 'quantity', 4));
    const languageId = intParam(field(b, 'language', 12));
    const start = field(b, 'start', 40);
    const problems: string[] = [];
    if (q === null || q < tour.min_persons || q > tour.max_persons) problems.push(t('qty.range', { title: tour.title, min: tour.min_persons, max: tour.max_persons }));
    if (languageId === null || !tour.languages.some((l) => l.id === languageId)) problems.push(t('tour.nolanguage'));
    if (!start) problems.push(t('tour.nostart'));
    if (problems.length) throw invalid(t('qty.invalid'), problems);
    // The start must be one the tour offers and still free that day (the order checks it again).
    const day = await getTourStartTimes(req.readCtx, { tourId: tour.id, date: start.slice(0, 10), languageId: languageId! });
    const at = new Date(start).getTime();
    if (!day.starts.some((s) => s.start.getTime() === at && s.bookable > 0)) throw new DomainError('SLOT_SOLD_OUT', 'start time not bookable');
    const cart = openCart(req);
    const line: CartLine = { kind: 'tour', id: tour.id, quantity: q!, start: new Date(at).toISOString(), languageId: languageId! };
    await admit(req, reply, cart, [line]);
    writeCart(req, reply, { ...cart, lines: [...cart.lines, line] });
    return seeOther(reply, '/shop/cart');
  });

  app.post('/cart/remove', { schema: { hide: true } }, async (req, reply) => {
    const cart = readCart(req);
    const n = intParam(field(req.body, 'line', 3));
    const line = n !== null ? cart.lines[n - 1] : undefined;
    if (line && !cart.order) {
      // Frees the places at once; a hold that lapsed or was used already is simply dropped.
      if (line.kind !== 'tour') await deleteReservation(req.shopCtx, { token: line.token }).catch((err) => ignoreGone(err));
      writeCart(req, reply, { ...cart, lines: cart.lines.filter((l) => l !== line) });
    }
    return seeOther(reply, '/shop/cart');
  });

  app.post('/cart/extend', { schema: { hide: true } }, async (req, reply) => {
    const cart = readCart(req);
    if (cart.order || cart.extended) return seeOther(reply, '/shop/cart');
    await limiter.take(visitorId(req, reply), req.ip);
    const lines: CartLine[] = [];
    for (const l of cart.lines) {
      if (l.kind === 'tour') lines.push(l);
      else lines.push(holdLine(l.kind, l.id, await updateReservation(req.shopCtx, { token: l.token, quantity: l.quantity })));
    }
    writeCart(req, reply, { ...cart, lines, extended: true });
    return seeOther(reply, '/shop/cart');
  });
};

function ignoreGone(err: unknown) {
  if (err instanceof DomainError && (err.code === 'NOT_FOUND' || err.code === 'RESERVATION_EXPIRED')) return;
  throw err;
}
