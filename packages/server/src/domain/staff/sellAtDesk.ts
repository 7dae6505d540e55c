// A box-office sale: the basket becomes one finalized order on the console's account (two when
// it holds gift cards and other lines: gift cards are sold in an order of their own), and the
// money is recorded through the payments module's `desk` provider (cash or card terminal; split
// across methods as the cashier says), all in one transaction with the audit entry: a refused
// payment leaves no order and no tickets. The invoice part is not money received: it stays due on
// the order until the bank transfer is recorded (provider `invoice`). The form's idempotency key
// becomes each order's foreign_id (the gift cards' with a suffix), so a double-clicked (or
// resent) sale replays the first orders through createOrder's own rule instead of selling twice;
// the sale form asks deskSaleOf first, before its codes are checked again.
import { findOrderByForeignId } from '../../db/repositories/orders.ts';
import { paymentsOfOrder } from '../../db/repositories/payments.ts';
import { recordDeskSale } from '../../db/repositories/staff.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { DomainError, invalid } from '../errors.ts';
import { createOrder } from '../orders/createOrder.ts';
import { findOrder, type OrderView } from '../orders/internal.ts';
import type { PaymentProviders } from '../payments/provider.ts';
import { recordPayment } from '../payments/recordPayment.ts';
import { payWithGiftCard } from '../vouchers/redeem.ts';
import { codeError } from '../vouchers/applied.ts';
import { MAX_CODES, orderItems, splitBasket, type BasketLine } from './deskBasket.ts';
import type { StaffCtx } from './principal.ts';

export const PAYMENT_METHODS = ['cash', 'card', 'invoice'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface DeskSale {
  key: string;
  lines: BasketLine[];
  /** Who pays the rest, after the part. */
  payment: string;
  /** An optional part paid another way first (card + cash). */
  part?: { method: string; cents: number };
  /** Cash handed over, for the change (only with cash). */
  givenCents?: number;
  /** Promo codes and vouchers, taken by the order of the lines that are not gift cards (deskBasket.ts). */
  codes?: string[];
  /** A gift card pays this much first (vouchers/redeem.ts); the methods above pay the rest. */
  giftCard?: { code: string; cents: number };
  delivery: string;
  customer?: { name: string; surname: string; email: string };
  /** A name without an email: kept on the order as its reference. */
  reference?: string;
}

export interface DeskSaleResult {
  /** The first order: the one with tickets and vouchers, or the gift cards' when nothing else was sold. */
  order: OrderView;
  /** Every order of the sale: the other lines' and then the gift cards' (ADR 0043). */
  orders: OrderView[];
  replayed: boolean;
  /** Per method over all orders, what was recorded (invoice: what stays due). */
  paid: Record<PaymentMethod, number>;
  changeCents: number;
}

const isMethod = (m: string): m is PaymentMethod => (PAYMENT_METHODS as readonly string[]).includes(m);

/** Problems with the form as such (the route shows them in the user's words first). */
export function saleProblems(input: DeskSale): string[] {
  const errors: string[] = [];
  if (!/^[A-Za-z0-9-]{16,64}$/.test(input.key)) errors.push('the form is incomplete; reload the page');
  if (input.lines.length === 0) errors.push('the basket is empty');
  if (!isMethod(input.payment)) errors.push('payment must be cash, card or invoice');
  if (input.part && (!isMethod(input.part.method) || !Number.isInteger(input.part.cents) || input.part.cents < 0)) errors.push('the part payment is not an amount');
  if (input.giftCard && (!Number.isInteger(input.giftCard.cents) || input.giftCard.cents <= 0)) errors.push('the gift card part is not an amount');
  if (input.givenCents !== undefined && (!Number.isInteger(input.givenCents) || input.givenCents < 0)) errors.push('the cash given is not an amount');
  if (input.codes && input.codes.length > MAX_CODES) errors.push(`a sale takes at most ${MAX_CODES} codes`);
  if (input.delivery !== 'print' && input.delivery !== 'mail') errors.push('tickets must be printed or mailed');
  if (input.delivery === 'mail' && !input.customer?.email) errors.push('an email address is needed to mail the tickets');
  return errors;
}

/** How the total splits over the methods; throws when the part exceeds it or the cash does not cover. */
export function splitPayment(total: number, input: Pick<DeskSale, 'payment' | 'part' | 'givenCents'>): { paid: Record<PaymentMethod, number>; changeCents: number } {
  const paid: Record<PaymentMethod, number> = { cash: 0, card: 0, invoice: 0 };
  const part = input.part && input.part.cents > 0 ? input.part : null;
  if (part && part.cents > total) throw invalid('the sale could not be made', ['the part payment is more than the total']);
  if (part) paid[part.method as PaymentMethod] += part.cents;
  paid[input.payment as PaymentMethod] += total - (part?.cents ?? 0);
  let changeCents = 0;
  if (input.givenCents !== undefined && paid.cash > 0) {
    if (input.givenCents < paid.cash) throw invalid('the sale could not be made', ['the cash given is less than the cash due']);
    changeCents = input.givenCents - paid.cash;
  }
  return { paid, changeCents };
}

/** What one order of the sale is paid with; the split parts go to the non-gift-card order. */
interface OrderPay { paid: Record<PaymentMethod, number>; giftCents: number }

/**
 * Splits the money over the sale's orders. Gift cards are paid by the method chosen only: a gift
 * card never pays for gift cards (vouchers/redeem.ts refuses it too), and a part payment goes to
 * the other order when there is one. Cash given and change are over the whole sale.
 */
export function payOrders(totals: { others: number | null; cards: number | null }, input: Pick<DeskSale, 'payment' | 'part' | 'givenCents' | 'giftCard'>): { others: OrderPay; cards: OrderPay; paid: Record<PaymentMethod, number>; changeCents: number } {
  const giftCents = input.giftCard?.cents ?? 0;
  if (giftCents > 0 && totals.others === null) throw new DomainError('GIFT_CARD_PAYS_GIFT_CARD', 'a gift card cannot pay for gift cards');
  if (giftCents > (totals.others ?? 0)) throw invalid('the sale could not be made', ['the gift card part is more than the total']);
  const none = { cash: 0, card: 0, invoice: 0 };
  const others = totals.others !== null ? splitPayment(totals.others - giftCents, input).paid : none;
  const cards = totals.cards !== null ? splitPayment(totals.cards, totals.others !== null ? { payment: input.payment } : input).paid : none;
  const paid: Record<PaymentMethod, number> = { cash: others.cash + cards.cash, card: others.card + cards.card, invoice: others.invoice + cards.invoice };
  const { changeCents } = splitPayment(paid.cash, { payment: 'cash', ...(input.givenCents !== undefined ? { givenCents: input.givenCents } : {}) });
  return { others: { paid: others, giftCents }, cards: { paid: cards, giftCents: 0 }, paid, changeCents };
}

export async function sellAtDesk(ctx: StaffCtx, providers: PaymentProviders, input: DeskSale): Promise<DeskSaleResult> {
  const errors = saleProblems(input);
  const { others, cards } = splitBasket(input.lines);
  // As on the gift-card form: a card is money handed over now, not a debt (cash or card only).
  const invoiced = input.payment === 'invoice' || (!others.length && input.part?.method === 'invoice' && input.part.cents > 0);
  if (cards.length && invoiced) errors.push('gift cards are paid cash or by card');
  if (errors.length) throw invalid('the sale could not be made', errors);
  const codes = input.codes ?? [];
  if (codes.length && others.length === 0) throw codeError('CODE_NOT_APPLICABLE', 'codes apply to tickets, events and tours, not to gift cards');
  const deskCtx: StaffCtx = { ...ctx, channel: 'desk' };
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...deskCtx, db: tx };
    // Gift cards go into an order of their own (ADR 0043), each order with its own foreign_id
    // derived from the form's key, so a resent form replays both instead of selling again.
    const made: Array<{ order: OrderView; replayed: boolean; lines: BasketLine[] }> = [];
    // The second order names the first one's customer: the visitor is one customer, not two.
    let customerId: number | null = null;
    for (const [lines, suffix] of [[others, ''], [cards, '-gc']] as const) {
      if (lines.length === 0) continue;
      const r = await createOrder(txCtx, {
        foreign_id: `desk-${input.key}${suffix}`,
        items: orderItems(lines),
        ...(suffix === '' && codes.length ? { codes } : {}),
        ...(customerId !== null ? { customer_id: customerId } : input.customer ? { customer: input.customer } : {}),
        ...(input.reference ? { reference: input.reference } : {}),
        finalize: true,
      });
      made.push({ ...r, lines });
      if (input.customer) customerId = (await findOrder(tx, txCtx, r.order.id)).customerId;
    }
    const otherOrder = others.length ? made[0]!.order : null;
    const cardOrder = cards.length ? made[made.length - 1]!.order : null;
    const split = payOrders({ others: otherOrder?.totalPriceCents ?? null, cards: cardOrder?.totalPriceCents ?? null }, input);
    const replayed = made.every((m) => m.replayed);
    const out: OrderView[] = [];
    for (const m of made) {
      const pay = m.order === cardOrder ? split.cards : split.others;
      out.push(m.replayed ? m.order : await payOne(txCtx, providers, m.order, m.lines, pay, input));
    }
    return { order: out[0]!, orders: out, replayed, paid: split.paid, changeCents: split.changeCents };
  });
}

/**
 * The sale a form's key made already (a resent form, a double click): its orders, the other lines'
 * first, and the cash they took; null when the form has not sold yet. Asked before the basket is
 * priced again, since a sold basket's codes are used up by the sale itself.
 */
export async function deskSaleOf(ctx: StaffCtx, key: string): Promise<{ orderIds: number[]; cashCents: number } | null> {
  if (ctx.principal.kind !== 'account' || !/^[A-Za-z0-9-]{16,64}$/.test(key)) return null;
  const orderIds: number[] = [];
  for (const suffix of ['', '-gc']) {
    const row = await findOrderByForeignId(ctx.db, ctx.principal.accountId, `desk-${key}${suffix}`);
    if (row) orderIds.push(row.id);
  }
  if (orderIds.length === 0) return null;
  let cashCents = 0;
  for (const id of orderIds) {
    for (const p of await paymentsOfOrder(ctx.db, id)) if (p.provider === 'desk' && p.method === 'cash' && p.state === 'confirmed') cashCents += p.amountCents;
  }
  return { orderIds, cashCents };
}

/** One order's payments, its desk-sale mark (the cash closing finds it by the cashier) and audit entry. */
async function payOne(ctx: StaffCtx, providers: PaymentProviders, order: OrderView, lines: BasketLine[], pay: OrderPay, input: DeskSale): Promise<OrderView> {
  const { paid, giftCents } = pay;
  if (input.giftCard && giftCents > 0) await payWithGiftCard(ctx, String(order.id), { code: input.giftCard.code, amount_cents: giftCents });
  for (const method of ['card', 'cash'] as const) {
    if (paid[method] > 0) await recordPayment(ctx, providers, String(order.id), { provider: 'desk', amount_cents: paid[method], method });
  }
  const methods = PAYMENT_METHODS.filter((m) => paid[m] > 0);
  const label = methods.length + (giftCents > 0 ? 1 : 0) > 1 ? 'split' : giftCents > 0 ? 'gift_card' : (methods[0] ?? input.payment);
  await recordDeskSale(ctx.db, order.id, label, ctx.staff.id);
  await recordAudit(ctx, ctx.staff, {
    action: 'order.sell', entityType: 'order', entityId: order.id, museumId: order.museumIds[0] ?? null,
    after: { lines, paid, ...(order.discounts?.length ? { discounts: order.discounts } : {}), ...(giftCents ? { gift_card_cents: giftCents } : {}), delivery: input.delivery, total_cents: order.totalPriceCents },
  });
  return { ...order, paymentMethod: label, staffUserId: ctx.staff.id };
}
