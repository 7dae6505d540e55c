// The order's pages, keyed by its unguessable token: the summary with net, VAT and gross (the
// domain's invoice arithmetic over the order's own priced lines), its promo-code discounts, what
// a gift card paid and what is still due, and the payment choice while it is pending; the return
// from the provider's page; the confirmation with the documents, an .ics file and the manage
// link once it is paid.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { orderDocumentByToken, type LinkKind } from '../../../domain/documents/orderDocumentByToken.ts';
import { contentDisposition } from '../../../domain/documents/filename.ts';
import { notFound, invalid } from '../../../domain/errors.ts';
import { finalizeOrder } from '../../../domain/orders/finalizeOrder.ts';
import { orderManageLink } from '../../../domain/shop/manageLink.ts';
import { orderDiscounts } from '../../../domain/shop/orderDiscounts.ts';
import { confirmOnReturn } from '../../../domain/payments/confirmPayment.ts';
import { listPayments, paymentsOf } from '../../../domain/payments/listPayments.ts';
import { amountDue, startPayment } from '../../../domain/payments/startPayment.ts';
import { GIFT_CARD_REFUSALS } from './giftCard.ts';
import { computeInvoiceTotals } from '../../../domain/pricing/vat.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { newCart, readCart, writeCart } from '../cart.ts';
import { shopTranslator } from '../i18n.ts';
import { orderIcs } from '../ics.ts';
import { field } from '../kit.ts';
import { orderLines } from '../orderLines.ts';
import { orderOf } from '../orderRef.ts';
import { renderPage, seeOther } from '../render.ts';
import { shopSettings } from '../settings.ts';

/** This server's origin as the visitor reached it (the provider sends the visitor back here). */
function origin(req: FastifyRequest): string {
  return req.shopCtx.config.payments.publicUrl ?? `${req.protocol}://${req.host}`;
}

async function manageHref(req: FastifyRequest, order: { id: number; token: string; status: string }): Promise<string | null> {
  if (order.status !== 'finalized') return null;
  const token = await orderManageLink(req.shopCtx, order);
  return token ? `/shop/manage/${token}` : null;
}

const DOCS: Record<string, { link: LinkKind; kind: string }> = {
  tickets: { link: 'tickets', kind: 'ticket' },
  events: { link: 'events', kind: 'ticket' },
  tours: { link: 'tours', kind: 'confirmation' },
  invoice: { link: 'invoice', kind: 'invoice' },
};

export const orderRoutes: FastifyPluginAsync = async (app) => {
  app.get('/orders/:token', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    const t = shopTranslator(req.shopLocale);
    const lines = await orderLines(req.readCtx, order, req.shopLocale);
    const totals = computeInvoiceTotals(lines.map((l, n) => ({ title: l.title, quantity: l.quantity, unit_price_cents: l.unitCents, total_cents: l.totalCents, vat_pct: l.vatPct, tax_included: order.items[n]!.taxIncluded })));
    // The visitor's cart became this order: once it is sold, the next visit starts a new cart.
    const cart = readCart(req);
    if (order.status === 'finalized' && cart.order === order.token) writeCart(req, reply, newCart());
    const settings = await shopSettings(req.shopCtx, req.shopLocale, req.shopKeep);
    const docs = Object.entries(DOCS)
      .filter(([k, d]) => order.documents.some((x) => x.kind === d.kind) && (k === 'invoice' || order.items.some((i) => i.type === { tickets: 'Ticket', events: 'Event', tours: 'Tour' }[k])))
      .map(([k, d]) => ({ key: k, ready: order.documents.some((x) => x.kind === d.kind && x.status === 'available') }));
    // The money side: what a gift card paid, what is still due (the rest the provider takes).
    const money = await paymentsOf(req.shopCtx.db, order);
    const paidByCard = money.payments.filter((p) => p.provider === 'gift_card' && p.state === 'confirmed');
    const due = order.status === 'pending' ? await amountDue(req.shopCtx.db, { ...order, status: 'pending' }) : 0;
    const gc = field(req.query, 'gift_card', 30);
    return renderPage(req, reply, 'order', {
      // Gift cards are not paid with a gift card (GIFT_CARD_PAYS_GIFT_CARD): no field for one.
      giftCardField: !order.items.some((i) => i.type === 'GiftCard'),
      paidByCard, due, giftCardNote: gc === 'ok' || (GIFT_CARD_REFUSALS as readonly string[]).includes(gc) ? `gc.${gc}` : null,
      title: order.status === 'finalized' ? t('order.confirmed') : t('summary.title'),
      order, lines, totals, providers: settings.providers, docs, discounts: await orderDiscounts(req.shopCtx, order.id),
      // The order's one link, issued when it was finalized; a view issues nothing.
      manage: await manageHref(req, order),
    });
  });

  app.post('/orders/:token/pay', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    if (order.status === 'finalized') return seeOther(reply, `/shop/orders/${order.token}`);
    // A voucher or a 100 % code can leave nothing to pay: no provider is asked, the order is made
    // binding as paid orders are (finalizeOrder: the sellability rule is asked again). Payments
    // only ever lower what is due, so nothing can be due by the time it commits.
    if ((await amountDue(req.shopCtx.db, { ...order, status: 'pending' })) === 0) {
      await finalizeOrder(req.shopCtx, order.token);
      return seeOther(reply, `/shop/orders/${order.token}`);
    }
    const settings = await shopSettings(req.shopCtx, req.shopLocale, req.shopKeep);
    const provider = field(req.body, 'provider', 20);
    const chosen = settings.providers.find((p) => p === provider);
    if (!chosen) throw invalid(shopTranslator(req.shopLocale)('pay.choose'), [shopTranslator(req.shopLocale)('pay.choose')]);
    const r = await startPayment(req.shopCtx, paymentProviders(req.shopCtx.config), order.token, {
      provider: chosen, return_url: `${origin(req)}/shop/orders/${order.token}/return`,
    });
    return seeOther(reply, r.redirectUrl);
  });

  app.get('/orders/:token/return', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    const providers = paymentProviders(req.shopCtx.config);
    const { payments } = await listPayments(req.shopCtx, order.token);
    // Ask the provider about every attempt still open (the webhook may not have come yet).
    for (const p of payments.filter((x) => x.state === 'pending' || x.state === 'created')) {
      await confirmOnReturn(req.shopCtx, providers, order.token, p.id);
    }
    return seeOther(reply, `/shop/orders/${order.token}`);
  });

  app.get('/orders/:token/documents/:kind', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    const spec = DOCS[(req.params as Record<string, string>).kind ?? ''];
    if (!spec) throw notFound('document');
    const type = { tickets: 'Ticket', events: 'Event', tours: 'Tour', invoice: null }[spec.link];
    const item = type ? order.items.find((i) => i.type === type) : undefined;
    if (type && !item) throw notFound('document');
    const file = await orderDocumentByToken(req.shopCtx, { orderId: order.id, token: order.token, link: spec.link, ...(item ? { itemId: item.id } : {}) });
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.filename))
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('referrer-policy', 'no-referrer')
      .send(file.content);
  });

  app.get('/orders/:token/calendar.ics', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    if (order.status !== 'finalized') throw notFound('order');
    const lines = await orderLines(req.readCtx, order, req.shopLocale);
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', contentDisposition(`order-${order.id}.ics`))
      .send(orderIcs(order, lines, req.host));
  });
};
