// Gift cards at the box office. Selling one: its own small form (a card is not an order item: no
// VAT, no slot), fixed values or a free amount within the domain's limits, paid cash or by card;
// the answer shows the code once, for printing or copying onto the card, and never again (the
// form's key makes a repeat of the same form answer with that card, without the code).
// Paying with one: the basket's gift-card fields (giftPart), read on every step of the sale form,
// so the cashier sees the card's balance and what is left for the second payment.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { parseMoney } from '../../../domain/staff/deskBasket.ts';
import { sellGiftCardAtDesk } from '../../../domain/staff/deskGiftCard.ts';
import { formatCode } from '../../../domain/vouchers/code.ts';
import { GIFT_CARD_LIMITS } from '../../../domain/vouchers/giftCards.ts';
import { giftCardBalance } from '../../../domain/vouchers/redeem.ts';
import { formatters, translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field } from './kit.ts';
import { renderPage } from './render.ts';
import type { FormError } from './saleForm.ts';

export interface GiftPart { code: string; amount: string; cents: number; balanceCents: number | null; last4: string; errors: FormError[] }

const domainError = (req: FastifyRequest, err: DomainError, fieldName: string): FormError => {
  const m = domainMessage(req, err);
  return { key: 'desk.error.domain', vars: { message: [m.message, ...m.details].join(' ') }, field: fieldName };
};

/** The gift card typed into the basket: how much of `totalCents` it pays, or why it cannot. */
export async function giftPart(req: FastifyRequest, totalCents: number): Promise<GiftPart> {
  const code = field(req.body, 'gc_code', 40);
  const amount = field(req.body, 'gc_amount', 12);
  const out: GiftPart = { code, amount, cents: 0, balanceCents: null, last4: '', errors: [] };
  if (!code) {
    if (amount) out.errors.push({ key: 'desk.error.gccode', field: 'gc_code' });
    return out;
  }
  let balance;
  try {
    balance = await giftCardBalance(req.staffCtx, code);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    out.errors.push(domainError(req, err, 'gc_code'));
    return out;
  }
  out.balanceCents = balance.balance_cents;
  out.last4 = code.replace(/[\s-]/g, '').slice(-4).toUpperCase();
  const money = (c: number) => formatters(req.consoleLocale).money(c, balance.currency);
  if (balance.expired) {
    out.errors.push({ key: 'code.CODE_EXPIRED', field: 'gc_code' });
    return out;
  }
  const typed = parseMoney(amount);
  if (Number.isNaN(typed)) {
    out.errors.push({ key: 'desk.error.amount', field: 'gc_amount' });
    return out;
  }
  if (totalCents <= 0) return out;
  const cents = typed ?? Math.min(balance.balance_cents, totalCents);
  if (cents > balance.balance_cents) out.errors.push({ key: 'desk.error.gcbalance', vars: { balance: money(balance.balance_cents) }, field: 'gc_amount' });
  else if (cents > totalCents) out.errors.push({ key: 'desk.error.gctotal', vars: { total: money(totalCents) }, field: 'gc_amount' });
  else if (cents <= 0) out.errors.push({ key: 'code.CODE_EXHAUSTED', field: 'gc_code' });
  else out.cents = cents;
  return out;
}

interface SellForm { key: string; value: string; amount: string; recipient: string; language: string; payment: string; given: string }

function readSellForm(body: unknown, fallbackLanguage: string): SellForm {
  return {
    key: field(body, 'key', 64) || randomUUID(), value: field(body, 'value', 8), amount: field(body, 'amount', 12), recipient: field(body, 'recipient', 200),
    language: field(body, 'language', 5) || fallbackLanguage, payment: field(body, 'payment', 10) || 'cash', given: field(body, 'given', 12),
  };
}

function showSell(req: FastifyRequest, reply: FastifyReply, form: SellForm, errors: FormError[], status = 200) {
  const t = translator(req.consoleLocale);
  return renderPage(req, reply, 'giftcards/sell', {
    title: t('giftcards.sell.title'), form, limits: GIFT_CARD_LIMITS, locales: req.staffCtx.config.locales,
    errorTexts: errors.map((e) => t(e.key, e.vars)), invalid: new Set(errors.flatMap((e) => (e.field ? [e.field] : []))),
  }, status);
}

export const saleGiftCardPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/sale/gift-card', action: 'sale.create' }, async (req, reply) =>
    showSell(req, reply, readSellForm({}, req.consoleLocale), []));

  consoleRoute(app, { method: 'POST', url: '/sale/gift-card', action: 'sale.create' }, async (req, reply) => {
    const form = readSellForm(req.body, req.consoleLocale);
    const errors: FormError[] = [];
    const fixed = (GIFT_CARD_LIMITS.values as readonly number[]).includes(Number(form.value)) ? Number(form.value) : null;
    const free = parseMoney(form.amount);
    const given = parseMoney(form.given);
    if (Number.isNaN(free)) errors.push({ key: 'desk.error.amount', field: 'amount' });
    else if (free === null && fixed === null) errors.push({ key: 'giftcards.error.value', field: 'amount' });
    if (Number.isNaN(given)) errors.push({ key: 'desk.error.amount', field: 'given' });
    if (errors.length) return showSell(req, reply, form, errors, 422);
    const amountCents = free ?? fixed!;
    try {
      const r = await sellGiftCardAtDesk({ ...req.staffCtx, channel: 'desk' }, {
        key: form.key, amount_cents: amountCents, method: form.payment, language: form.language,
        ...(given !== null ? { given_cents: given } : {}), ...(form.recipient ? { recipient: form.recipient } : {}),
      });
      // The only answer that ever carries the code: not to be cached anywhere.
      reply.header('cache-control', 'no-store');
      return renderPage(req, reply, 'giftcards/sold', {
        title: translator(req.consoleLocale)('giftcards.sold.title'), card: r.card, code: r.code === null ? null : formatCode(r.code), changeCents: r.changeCents, payment: form.payment,
      });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'FORBIDDEN') throw err;
      errors.push(domainError(req, err, 'amount'));
      return showSell(req, reply, form, errors, 422);
    }
  });
};
