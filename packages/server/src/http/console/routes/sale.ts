// Box-office sale with a basket. One page, one form, re-rendered by the server on every step (no
// JavaScript needed; console.js only shows the change while typing): type quantities per ticket
// for the chosen slot and press Enter (Add), see the total computed by the server, type the cash
// given, sell. Errors are shown on the form with everything typed kept. The form carries a fresh
// idempotency key, so a double click makes one order. After the sale the page starts the next
// basket and shows the previous sale's change, its ticket PDF and the PDFs of the gift cards and
// vouchers it sold. Gift cards are added by a value button or a free amount (the domain's limits)
// and vouchers by a quantity per ticket; a basket with gift cards and other lines makes two
// orders (sellAtDesk), both named in the notice.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { getOrder } from '../../../domain/orders/getOrder.ts';
import { EMPTY_QUOTE, lineText, parseMoney, quoteBasket, type PricedLine, type Quote } from '../../../domain/staff/deskBasket.ts';
import { deskOffer, type DeskOffer } from '../../../domain/staff/deskSlots.ts';
import { deskSaleOf, sellAtDesk, splitPayment, type DeskSale } from '../../../domain/staff/sellAtDesk.ts';
import type { StaffCtx } from '../../../domain/staff/principal.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { formatters, translator } from '../i18n.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';
import { giftPart, type GiftPart } from './saleGiftCards.ts';
import { withCodes } from './saleCodes.ts';
import { GIFT_CARD_LIMITS } from '../../../domain/vouchers/giftCards.ts';
import { cardLine, emptyForm, mergeLines, money, readForm, typedLines, type FormError, type SaleForm } from './saleForm.ts';

const deskCtx = (req: FastifyRequest): StaffCtx => ({ ...req.staffCtx, channel: 'desk' });

interface View {
  form: SaleForm;
  offer: DeskOffer;
  quote: Quote;
  errors: FormError[];
  /** The element that gets the focus: where the cashier's eyes go next. */
  focus: string;
  changeCents: number | null;
  done?: unknown;
  /** A gift card paying part of the basket (saleGiftCards.ts). */
  gift?: GiftPart;
}

function show(req: FastifyRequest, reply: FastifyReply, v: View, status = 200) {
  const t = translator(req.consoleLocale);
  const firstTimed = v.offer.tickets.find((x) => x.timed);
  const time = v.form.time || (v.offer.times[0]?.toISOString() ?? '');
  // What is left at a time, over the tickets that have a slot then (an hourly and a half-hourly
  // ticket share 13:30 only if both start one then; one without that slot says nothing about it).
  const leftAt = (d: Date) => Math.min(...v.offer.tickets.filter((x) => x.timed).flatMap((x) => x.slots.filter((s) => s.start.getTime() === d.getTime()).map((s) => s.left)));
  return renderPage(req, reply, 'sale', {
    title: t('sale.title'), ...v, time, firstTimed, leftAt,
    lineTexts: v.quote.lines.map(lineText), lineTitle: (l: PricedLine) => lineTitle(v.offer, l, t, (c) => formatters(req.consoleLocale).money(c, req.staffCtx.config.currency)),
    cardLimits: GIFT_CARD_LIMITS, locales: req.staffCtx.config.locales, cardLanguage: v.form.cardLanguage || req.consoleLocale,
    errorTexts: v.errors.map((e) => t(e.key, e.vars)),
    invalid: new Set(v.errors.flatMap((e) => (e.field ? [e.field] : []))),
  }, status);
}

export const salePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/sale', action: 'sale.create' }, async (req, reply) => {
    const ctx = deskCtx(req);
    const offer = await deskOffer(ctx, req.consoleLocale, field(req.query, 'date', 10) || undefined);
    // The sale's orders: `done`, and `cards` when its gift cards made an order of their own.
    const ids = [intParam(field(req.query, 'done', 12)), intParam(field(req.query, 'cards', 12))].filter((x): x is number => x !== null);
    const orders = (await Promise.all(ids.map((id) => getOrder(req.staffCtx, String(id)).catch(() => null)))).filter((o) => o !== null);
    const change = intParam(field(req.query, 'change', 9));
    return show(req, reply, {
      form: emptyForm(randomUUID(), offer.date), offer, quote: EMPTY_QUOTE, errors: [], focus: 'qty', changeCents: null,
      done: orders.length ? { orders, changeCents: change ?? 0 } : null,
    });
  });

  consoleRoute(app, { method: 'POST', url: '/sale', action: 'sale.create' }, async (req, reply) => {
    const ctx = deskCtx(req);
    const op = field(req.body, 'op', 20) || 'add';
    let form = readForm(req.body, randomUUID(), '');
    if (op === 'sell') {
      // Sent again after it sold: the sale it made, nothing more (its codes are used up by now).
      const made = await deskSaleOf(ctx, form.key);
      if (made) return reply.code(303).header('location', soldUrl(form.date, made.orderIds, changeOf(form, made.cashCents))).send();
    }
    const offer = await deskOffer(ctx, req.consoleLocale, form.date || undefined);
    const fmt = formatters(req.consoleLocale);
    let lines = form.lines;
    const errors: FormError[] = [];
    if (op.startsWith('remove-')) lines = lines.filter((_, i) => `remove-${i}` !== op);
    // A gift card's value button adds what was typed as well, as Add does.
    const typed = op === 'add' || op === 'sell' || op === 'code' || op.startsWith('card-') ? typedLines(form, offer, (d) => fmt.time(d, offer.zone)) : { lines: [], errors: [] };
    const card = cardLine(form, op, req.staffCtx.config.locales[0] ?? req.consoleLocale);
    typed.lines.push(...card.lines);
    errors.push(...typed.errors, ...card.errors);
    const merged = mergeLines(lines, typed.lines);
    let quote: Quote = EMPTY_QUOTE;
    try {
      quote = await quoteBasket(ctx, merged);
      lines = merged;
      if (typed.lines.length) form = { ...form, qty: {}, cardAmount: '', cardQty: '' };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = domainMessage(req, err);
      errors.push({ key: 'desk.error.domain', vars: { message: [m.message, ...m.details].join(' ') } });
      quote = await quoteBasket(ctx, lines).catch(() => EMPTY_QUOTE);
    }
    const coded = await withCodes(req, ctx, lines, quote, form, op);
    quote = coded.quote;
    errors.push(...coded.errors);
    form = { ...form, lines, codes: quote.codes.map((c) => c.typed), codeNew: coded.codeNew };
    const cash = money(form);
    errors.push(...cash.errors);
    // A gift card pays for the other lines only (after their codes): never for gift cards (sellAtDesk).
    const othersCents = quote.totalCents - quote.lines.reduce((s, l) => s + (l.kind === 'giftcard' ? l.totalCents : 0), 0);
    const gift = await giftPart(req, othersCents);
    errors.push(...gift.errors);
    if (gift.code && othersCents === 0 && quote.lines.length > 0) errors.push({ key: 'code.GIFT_CARD_PAYS_GIFT_CARD', field: 'gc_code' });
    const due = quote.totalCents - gift.cents;
    let changeCents: number | null = null;
    if (!errors.length && quote.totalCents >= 0 && cash.given !== null) {
      try {
        changeCents = splitPayment(due, { payment: form.payment, ...(cash.part ? { part: { method: form.partMethod, cents: cash.part } } : {}), givenCents: cash.given }).changeCents;
      } catch {
        errors.push(shortOf(due, form, cash, (c) => fmt.money(c, req.staffCtx.config.currency)));
      }
    }
    const view = (focus: string, status = 200) => show(req, reply, { form, offer, quote, errors, focus, changeCents, gift }, status);
    if (errors.length) return view(errors[0]!.field ?? (op === 'sell' ? 'sell' : 'qty'), 422);
    if (op !== 'sell') {
      // After adding: the cash given, when paying cash and none typed yet; then the sell button.
      const next = lines.length === 0 ? 'qty' : form.payment === 'cash' && cash.given === null ? 'given' : 'sell';
      return view(next);
    }
    const problems = sellProblems(form, quote);
    if (problems.length) {
      errors.push(...problems);
      return view(problems[0]!.field ?? 'sell', 422);
    }
    const sale: DeskSale = {
      key: form.key, lines, payment: form.payment, delivery: form.delivery,
      ...(form.codes.length ? { codes: form.codes } : {}),
      ...(cash.part ? { part: { method: form.partMethod, cents: cash.part } } : {}),
      ...(cash.given !== null ? { givenCents: cash.given } : {}),
      ...(gift.cents > 0 ? { giftCard: { code: gift.code, cents: gift.cents } } : {}),
      ...(form.email ? { customer: { name: form.name, surname: form.surname, email: form.email } } : {}),
      ...(!form.email && (form.name || form.surname) ? { reference: `${form.name} ${form.surname}`.trim() } : {}),
    };
    try {
      const r = await sellAtDesk(req.staffCtx, paymentProviders(req.staffCtx.config), sale);
      return reply.code(303).header('location', soldUrl(offer.date, r.orders.map((o) => o.id), r.changeCents)).send();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = domainMessage(req, err);
      errors.push({ key: 'desk.error.domain', vars: { message: [m.message, ...m.details].join(' ') } });
      return view('sell', 422);
    }
  });
};

/** The next basket's page, with the notice of the sale (the same for a form sent twice). */
function soldUrl(date: string, orderIds: number[], changeCents: number): string {
  const [done, cards] = orderIds;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? `date=${date}&` : '';
  return `/console/sale?${day}done=${done}${cards ? `&cards=${cards}` : ''}&change=${changeCents}`;
}

/** The change on cash given for what the sale took in cash (0 when none was typed). */
function changeOf(form: SaleForm, cashCents: number): number {
  const given = parseMoney(form.given);
  return given !== null && !Number.isNaN(given) && given > cashCents ? given - cashCents : 0;
}

/** A basket line's name: the product, for a tour its language, for a gift card its value and PDF language. */
function lineTitle(o: DeskOffer, l: PricedLine, t: (key: string, vars?: Record<string, string | number>) => string, money: (c: number) => string): string {
  if (l.kind === 'giftcard') return t('desk.line.giftcard', { amount: money(l.id), language: (l.language ?? '').toUpperCase() });
  if (l.kind === 'voucher') return t('desk.line.voucher', { title: o.tickets.find((x) => x.id === l.id)?.title ?? `#${l.id}` });
  if (l.kind === 'ticket') return o.tickets.find((t) => t.id === l.id)?.title ?? `#${l.id}`;
  if (l.kind === 'event') return o.events.find((e) => e.id === l.id)?.title ?? `#${l.id}`;
  const tour = o.tours.find((t) => t.id === l.id);
  const language = tour?.languages.find((x) => x.id === l.languageId)?.name;
  return `${tour?.title ?? `#${l.id}`}${language ? ` (${language})` : ''}`;
}

function shortOf(total: number, form: SaleForm, cash: { part: number | null; given: number | null }, money: (c: number) => string): FormError {
  if ((cash.part ?? 0) > total) return { key: 'desk.error.part', field: 'part_amount' };
  const due = form.payment === 'cash' ? total - (cash.part ?? 0) : form.partMethod === 'cash' ? (cash.part ?? 0) : 0;
  return { key: 'desk.error.short', vars: { given: money(cash.given ?? 0), due: money(due) }, field: 'given' };
}

function sellProblems(form: SaleForm, quote: Quote): FormError[] {
  const out: FormError[] = [];
  if (quote.lines.length === 0) out.push({ key: 'desk.error.empty', field: 'qty' });
  if (!/^[A-Za-z0-9-]{16,64}$/.test(form.key)) out.push({ key: 'desk.error.form' });
  if (form.delivery === 'mail' && !form.email) out.push({ key: 'desk.error.mailemail', field: 'email' });
  if (form.email && !form.surname) out.push({ key: 'desk.error.surname', field: 'surname' });
  const cards = quote.lines.some((l) => l.kind === 'giftcard');
  const others = quote.lines.some((l) => l.kind !== 'giftcard');
  if (cards && (form.payment === 'invoice' || (!others && form.partMethod === 'invoice' && form.partAmount !== ''))) out.push({ key: 'desk.error.cardinvoice', field: 'pay-cash' });
  return out;
}
