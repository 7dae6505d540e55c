// A box-office sale: the basket becomes one finalized order on the console's account, and the
// money is recorded through the payments module's `desk` provider (cash or card terminal; split
// across methods as the cashier says), all in one transaction with the audit entry: a refused
// payment leaves no order and no tickets. The invoice part is not money received: it stays due on
// the order until the bank transfer is recorded (provider `invoice`). The form's idempotency key
// becomes the order's foreign_id, so a double-clicked (or resent) sale replays the first order
// through createOrder's own rule instead of selling twice.
import { recordDeskSale } from '../../db/repositories/staff.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { invalid } from '../errors.ts';
import { createOrder } from '../orders/createOrder.ts';
import type { OrderView } from '../orders/internal.ts';
import type { PaymentProviders } from '../payments/provider.ts';
import { recordPayment } from '../payments/recordPayment.ts';
import { payWithGiftCard } from '../vouchers/redeem.ts';
import { orderItems, type BasketLine } from './deskBasket.ts';
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
  /** A gift card pays this much first (vouchers/redeem.ts); the methods above pay the rest. */
  giftCard?: { code: string; cents: number };
  delivery: string;
  customer?: { name: string; surname: string; email: string };
  /** A name without an email: kept on the order as its reference. */
  reference?: string;
}

export interface DeskSaleResult {
  order: OrderView;
  replayed: boolean;
  /** Per method, what was recorded (invoice: what stays due). */
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

export async function sellAtDesk(ctx: StaffCtx, providers: PaymentProviders, input: DeskSale): Promise<DeskSaleResult> {
  const errors = saleProblems(input);
  if (errors.length) throw invalid('the sale could not be made', errors);
  const deskCtx: StaffCtx = { ...ctx, channel: 'desk' };
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...deskCtx, db: tx };
    const { order, replayed } = await createOrder(txCtx, {
      foreign_id: `desk-${input.key}`,
      items: orderItems(input.lines),
      ...(input.customer ? { customer: input.customer } : {}),
      ...(input.reference ? { reference: input.reference } : {}),
      finalize: true,
    });
    const giftCents = input.giftCard?.cents ?? 0;
    if (giftCents > order.totalPriceCents) throw invalid('the sale could not be made', ['the gift card part is more than the total']);
    const { paid, changeCents } = splitPayment(order.totalPriceCents - giftCents, input);
    if (replayed) return { order, replayed, paid, changeCents };
    if (input.giftCard) await payWithGiftCard(txCtx, String(order.id), { code: input.giftCard.code, amount_cents: giftCents });
    for (const method of ['card', 'cash'] as const) {
      if (paid[method] > 0) await recordPayment(txCtx, providers, String(order.id), { provider: 'desk', amount_cents: paid[method], method });
    }
    const methods = PAYMENT_METHODS.filter((m) => paid[m] > 0);
    const label = methods.length + (giftCents > 0 ? 1 : 0) > 1 ? 'split' : giftCents > 0 ? 'gift_card' : (methods[0] ?? input.payment);
    await recordDeskSale(tx, order.id, label, ctx.staff.id);
    await recordAudit(txCtx, ctx.staff, {
      action: 'order.sell', entityType: 'order', entityId: order.id, museumId: order.museumIds[0] ?? null,
      after: { lines: input.lines, paid, ...(giftCents ? { gift_card_cents: giftCents } : {}), delivery: input.delivery, total_cents: order.totalPriceCents },
    });
    return { order: { ...order, paymentMethod: label, staffUserId: ctx.staff.id }, replayed, paid, changeCents };
  });
}
