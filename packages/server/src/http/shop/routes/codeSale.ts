// Gift cards and single-purpose vouchers in the shop (docs/shop.md "Gift cards and vouchers"):
// the offer page, the visitor's details, then one pending order placed by createOrder, which
// prices and checks the lines (amount limits, language, ticket sellable on the shop channel).
// From there the order's own pages take over: summary, payment, confirmation. A gift card is
// sold in an order of its own (ADR 0043), so these orders never come from the cart, and the page
// keeps the gift-card form and the voucher form apart. The choice travels in hidden fields (no
// server state); a fresh key per details page is the order's foreign_id, so a double submit or
// the back button makes one order, not two.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../../domain/documents/filename.ts';
import { DomainError } from '../../../domain/errors.ts';
import { createOrder } from '../../../domain/orders/createOrder.ts';
import { prepareItems, type OrderItemInput } from '../../../domain/orders/items.ts';
import { parseMoney } from '../../../domain/staff/deskBasket.ts';
import { GIFT_CARD_LIMITS, giftCardAmountProblem } from '../../../domain/vouchers/giftCards.ts';
import { soldCodePdf, type SoldKind } from '../../../domain/vouchers/orderCodePdf.ts';
import { shopFormatters, shopTranslator, type Translate } from '../i18n.ts';
import { field, intParam } from '../kit.ts';
import type { ShopLimiter } from '../limits.ts';
import { shopListing } from '../offers.ts';
import { orderOf } from '../orderRef.ts';
import { renderPage, seeOther } from '../render.ts';
import { visitorId } from '../security.ts';

/** What the visitor chose, as the forms carry it between the steps. */
export interface CodeChoice {
  kind: 'gift_card' | 'voucher';
  /** Gift card: the value chosen (a fixed one or "other"), the amount typed for "other". */
  value: string;
  other: string;
  quantity: string;
  language: string;
  recipient: string;
  /** Voucher: quantity per ticket id (v_<id>). */
  vouchers: Record<string, string>;
}

const KEY = /^[A-Za-z0-9-]{16,64}$/;

function readChoice(body: unknown): CodeChoice {
  const vouchers: Record<string, string> = {};
  for (const [k, v] of Object.entries((body as Record<string, unknown>) ?? {})) {
    if (/^v_\d{1,10}$/.test(k) && typeof v === 'string' && v.trim() !== '' && Object.keys(vouchers).length < 30) vouchers[k] = v.trim().slice(0, 3);
  }
  return {
    kind: field(body, 'kind', 10) === 'voucher' ? 'voucher' : 'gift_card',
    value: field(body, 'value', 10),
    other: field(body, 'other', 12),
    quantity: field(body, 'quantity', 3) || '1',
    language: field(body, 'language', 5),
    recipient: field(body, 'recipient', 200),
    vouchers,
  };
}

const count = (text: string) => (/^\d{1,2}$/.test(text) ? Number(text) : Number.NaN);

/** The order lines for the choice, or the problems worded for the visitor (nothing checked twice: the order decides the rest). */
function itemsOf(c: CodeChoice, t: Translate, money: (cents: number) => string): { items: OrderItemInput[]; problems: string[] } {
  const problems: string[] = [];
  if (c.kind === 'voucher') {
    const items: OrderItemInput[] = [];
    for (const [name, raw] of Object.entries(c.vouchers)) {
      const q = count(raw);
      if (Number.isNaN(q) || q > 20) problems.push(t('codes.bad.quantity'));
      else if (q > 0) items.push({ type: 'Voucher', attributes: { ticket_id: Number(name.slice(2)), quantity: q, ...(c.language ? { language: c.language } : {}) } });
    }
    if (!items.length && !problems.length) problems.push(t('codes.need.voucher'));
    return { items, problems: [...new Set(problems)] };
  }
  const cents = c.value === 'other' ? parseMoney(c.other) : parseMoney(c.value);
  const quantity = count(c.quantity);
  if (cents === null || Number.isNaN(cents) || giftCardAmountProblem(cents)) {
    problems.push(t('codes.bad.amount', { min: money(GIFT_CARD_LIMITS.minCents), max: money(GIFT_CARD_LIMITS.maxCents) }));
  }
  if (Number.isNaN(quantity) || quantity < 1 || quantity > 20) problems.push(t('codes.bad.quantity'));
  if (problems.length) return { items: [], problems };
  return {
    items: [{ type: 'GiftCard', attributes: { amount_cents: cents!, quantity, ...(c.language ? { language: c.language } : {}), ...(c.recipient ? { recipient: c.recipient } : {}) } }],
    problems,
  };
}

export const codeSaleRoutes = (limiter: ShopLimiter): FastifyPluginAsync => async (app) => {
  const offerPage = async (req: FastifyRequest, choice: CodeChoice | null, problems: string[]) => {
    const t = shopTranslator(req.shopLocale);
    const { tickets } = await shopListing(req.readCtx, req.shopLocale);
    return {
      title: t('codes.title'), tickets: tickets.filter((x) => x.bookable !== false), choice, problems,
      values: GIFT_CARD_LIMITS.values, limits: GIFT_CARD_LIMITS, languages: req.shopCtx.config.locales.filter((l) => l === 'de' || l === 'en'),
    };
  };

  app.get('/gift-cards', { schema: { hide: true } }, async (req, reply) => renderPage(req, reply, 'codes', await offerPage(req, null, [])));

  /** Checks the choice through the order's own pricing (no write) and shows the details form. */
  app.post('/gift-cards/details', { schema: { hide: true } }, async (req, reply) => {
    const t = shopTranslator(req.shopLocale);
    const choice = readChoice(req.body);
    const checked = await checkChoice(req, choice, t);
    if ('problems' in checked) return renderPage(req, reply, 'codes', await offerPage(req, choice, checked.problems), 422);
    return renderPage(req, reply, 'codesDetails', { title: t('checkout.title'), choice, lines: checked.lines, key: randomUUID(), form: {}, problems: [] });
  });

  app.post('/gift-cards/checkout', { schema: { hide: true } }, async (req, reply) => {
    const t = shopTranslator(req.shopLocale);
    const b = req.body;
    const choice = readChoice(b);
    const checked = await checkChoice(req, choice, t);
    if ('problems' in checked) return renderPage(req, reply, 'codes', await offerPage(req, choice, checked.problems), 422);
    const key = KEY.test(field(b, 'key', 64)) ? field(b, 'key', 64) : randomUUID();
    const form = { name: field(b, 'name', 600), surname: field(b, 'surname', 600), email: field(b, 'email', 600), phone: field(b, 'phone', 100) };
    const problems: string[] = [];
    if (!form.name) problems.push(t('checkout.need.name'));
    if (!form.surname) problems.push(t('checkout.need.surname'));
    if (!form.email) problems.push(t('checkout.need.email'));
    if (field(b, 'consent', 10) !== 'yes') problems.push(t('checkout.need.consent'));
    const again = (list: string[]) => renderPage(req, reply, 'codesDetails', { title: t('checkout.title'), choice, lines: checked.lines, key, form, problems: list }, 422);
    if (problems.length) return again(problems);
    await limiter.take(visitorId(req, reply), req.ip);
    const { order } = await createOrder(req.shopCtx, {
      foreign_id: `shop-codes-${key}`,
      customer: { name: form.name, surname: form.surname, email: form.email, ...(form.phone ? { phone: form.phone } : {}), locale: req.shopLocale },
      items: checked.items,
      finalize: false,
    });
    return seeOther(reply, `/shop/orders/${order.token}`);
  });

  // The PDFs of what the order sold, for the holder of its token (as the API's order-token links).
  for (const [kind, path] of [['gift_card', 'gift-cards'], ['voucher', 'vouchers']] as const) {
    app.get(`/orders/:token/${path}/:id.pdf`, { schema: { hide: true } }, async (req, reply) => {
      const order = await orderOf(req);
      const id = intParam((req.params as Record<string, unknown>).id) ?? 0;
      const sold = await soldCodePdf(req.shopCtx, { orderId: order.id, token: order.token, kind: kind as SoldKind, id });
      const { renderGiftCardPdf } = await import('../../../documents/render/giftCard.ts');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(sold.filename))
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('referrer-policy', 'no-referrer')
        // The PDF carries the code: never kept by a cache.
        .header('cache-control', 'no-store')
        .send(await renderGiftCardPdf(sold.data));
    });
  }
};

interface Line { title: string; quantity: number; unitCents: number; totalCents: number }

/** The choice as order lines, priced by the order's own rules; or what the visitor must change. */
async function checkChoice(req: FastifyRequest, choice: CodeChoice, t: Translate): Promise<{ items: OrderItemInput[]; lines: Line[] } | { problems: string[] }> {
  const fmt = (c: number) => shopFormatters(req.shopLocale).money(c, req.shopCtx.config.currency);
  const { items, problems } = itemsOf(choice, t, fmt);
  if (problems.length) return { problems };
  try {
    const prepared = await prepareItems(req.shopCtx.db, req.shopCtx, items);
    const { tickets } = choice.kind === 'voucher' ? await shopListing(req.readCtx, req.shopLocale) : { tickets: [] };
    return {
      items,
      lines: prepared.map((p) => ({
        title: p.type === 'GiftCard' ? t('codes.line.card', { amount: fmt(p.unitPriceCents) }) : t('codes.line.voucher', { title: tickets.find((x) => x.id === p.voucherTicketId)?.title ?? `#${p.voucherTicketId}` }),
        quantity: p.quantity, unitCents: p.unitPriceCents, totalCents: p.priceCents,
      })),
    };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { problems: [err.code === 'NOT_BOOKABLE' ? t('codes.bad.ticket') : t('codes.bad.choice')] };
  }
}
