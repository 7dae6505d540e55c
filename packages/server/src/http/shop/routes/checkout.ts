// Checkout: the visitor's details and consent, then one pending order for the whole cart. The
// cart's id is the order's foreign_id, so createOrder's own idempotency makes the back button, a
// reload and two tabs submitting one cart a single order (the same details replay it; other
// details are refused). The order re-checks every line: sellable on the shop channel, quantity,
// capacity (the cart's holds are consumed, a tour's start is claimed) and the price, which is
// the domain's alone. An expired hold or a slot sold out meanwhile is answered in words, and the
// cart keeps what is still held. The form also carries an optional promo code (the order's
// `codes`) and the names on personalised tickets (the items' `attendees`); a refusal of either
// comes back as this form with what was typed.
import type { FastifyPluginAsync } from 'fastify';
import { createOrder } from '../../../domain/orders/createOrder.ts';
import type { OrderItemInput } from '../../../domain/orders/items.ts';
import { DomainError, invalid } from '../../../domain/errors.ts';
import { readCart, writeCart, type Cart } from '../cart.ts';
import { shopTranslator } from '../i18n.ts';
import { field } from '../kit.ts';
import type { ShopLimiter } from '../limits.ts';
import { describeLines } from '../lines.ts';
import { attendeesFor, readAttendees, type Attendee } from '../attendees.ts';
import { renderPage, seeOther } from '../render.ts';
import { visitorId } from '../security.ts';
import { shopSettings } from '../settings.ts';

export function orderItems(cart: Cart, names: (n: number) => Attendee[] | undefined = () => undefined): OrderItemInput[] {
  return cart.lines.map((l, i) => {
    if (l.kind === 'tour') return { type: 'Tour', attributes: { id: l.id, quantity: l.quantity, start_time: l.start, language_id: l.languageId } };
    if (l.kind === 'event') return { type: 'Event', attributes: { id: l.id, quantity: l.quantity, reservations: [l.token] } };
    const attendees = names(i + 1);
    return { type: 'Ticket', attributes: { id: l.id, quantity: l.quantity, time: l.start, reservations: [l.token], ...(attendees ? { attendees } : {}) } };
  });
}

export const checkoutRoutes = (limiter: ShopLimiter): FastifyPluginAsync => async (app) => {
  app.get('/checkout', { schema: { hide: true } }, async (req, reply) => {
    const cart = readCart(req);
    if (cart.order) return seeOther(reply, `/shop/orders/${cart.order}`);
    if (!cart.lines.length) return seeOther(reply, '/shop/cart');
    const t = shopTranslator(req.shopLocale);
    const lines = await describeLines(req.readCtx, cart.lines, req.shopLocale);
    return renderPage(req, reply, 'checkout', { title: t('checkout.title'), lines, form: {}, names: {}, problems: [] });
  });

  app.post('/checkout', { schema: { hide: true } }, async (req, reply) => {
    const cart = readCart(req);
    if (cart.order) return seeOther(reply, `/shop/orders/${cart.order}`);
    if (!cart.lines.length) return seeOther(reply, '/shop/cart');
    const t = shopTranslator(req.shopLocale);
    const b = req.body;
    // Longer than any customer field: the domain's validation says what is too long.
    const form = { name: field(b, 'name', 600), surname: field(b, 'surname', 600), email: field(b, 'email', 600), phone: field(b, 'phone', 100), promo: field(b, 'promo', 64) };
    const lines = await describeLines(req.readCtx, cart.lines, req.shopLocale);
    const names = readAttendees(b, lines);
    const again = (problems: string[]) => renderPage(req, reply, 'checkout', { title: t('checkout.title'), lines, form, names, problems }, 422);
    const problems: string[] = [];
    if (!form.name) problems.push(t('checkout.need.name'));
    if (!form.surname) problems.push(t('checkout.need.surname'));
    if (!form.email) problems.push(t('checkout.need.email'));
    if (field(b, 'consent', 10) !== 'yes') problems.push(t('checkout.need.consent'));
    if (problems.length) return again(problems);
    await limiter.take(visitorId(req, reply), req.ip);
    const settings = await shopSettings(req.shopCtx, req.shopLocale, req.shopKeep);
    if (!settings.providers.length) throw invalid(t('error.noproviders'), [t('error.noproviders')]);
    let order;
    try {
      ({ order } = await createOrder(req.shopCtx, {
        foreign_id: `shop-${cart.id}`,
        customer: { name: form.name, surname: form.surname, email: form.email, ...(form.phone ? { phone: form.phone } : {}), locale: req.shopLocale },
        items: orderItems(cart, (n) => attendeesFor(lines.find((l) => l.n === n), names)),
        finalize: false,
        // The order's own rules decide (validity, limits, what it applies to); a refused code
        // places nothing and the form comes back with what was typed.
        ...(form.promo ? { codes: [form.promo] } : {}),
      }));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // The order refused the names it was given (the item's rule): the form says so in words.
      if (err.code === 'VALIDATION_FAILED' && (err.errors ?? []).some((e) => /attendee/.test(e))) return again([t('checkout.need.attendees')]);
      // A voucher for a ticket not in the cart is a refusal of the code too, said on the form.
      if (!err.code.startsWith('CODE_') && err.code !== 'VOUCHER_WRONG_TICKET') throw err;
      const key = `promo.${err.code}`;
      return again([t(t(key) === key ? 'promo.CODE_INVALID' : key)]);
    }
    writeCart(req, reply, { ...cart, order: order.token });
    return seeOther(reply, `/shop/orders/${order.token}`);
  });
};
