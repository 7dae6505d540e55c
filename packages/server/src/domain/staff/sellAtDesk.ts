// A box-office sale: one finalized order on the console's account with the payment method and
// the seller recorded, and an audit entry, in one transaction. The form's idempotency key becomes
// the order's foreign_id, so a double-clicked (or resent) sale replays the first order through
// createOrder's own rule instead of selling twice.
import type { Db } from '../../db/client.ts';
import { recordDeskSale } from '../../db/repositories/staff.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { invalid } from '../errors.ts';
import { createOrder } from '../orders/createOrder.ts';
import type { OrderView } from '../orders/internal.ts';
import type { StaffCtx } from './principal.ts';

export const PAYMENT_METHODS = ['cash', 'card', 'invoice'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface DeskSale {
  key: string;
  ticketId: number;
  /** The slot's start, ISO 8601. */
  time: string;
  quantity: number;
  payment: string;
  delivery: string;
  customer?: { name: string; surname: string; email: string };
}

function check(input: DeskSale): string[] {
  const errors: string[] = [];
  if (!/^[A-Za-z0-9-]{16,64}$/.test(input.key)) errors.push('the form is incomplete; reload the page');
  if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > 100) errors.push('quantity must be between 1 and 100');
  if (!(PAYMENT_METHODS as readonly string[]).includes(input.payment)) errors.push('payment must be cash, card or invoice');
  if (input.delivery !== 'print' && input.delivery !== 'mail') errors.push('tickets must be printed or mailed');
  if (input.delivery === 'mail' && !input.customer?.email) errors.push('an email address is needed to mail the tickets');
  if (!input.time) errors.push('choose a slot');
  return errors;
}

export async function sellAtDesk(ctx: StaffCtx, input: DeskSale): Promise<{ order: OrderView; replayed: boolean }> {
  const errors = check(input);
  if (errors.length) throw invalid('the sale could not be made', errors);
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...ctx, db: tx };
    const { order, replayed } = await createOrder(txCtx, {
      foreign_id: `desk-${input.key}`,
      items: [{ type: 'Ticket', attributes: { id: input.ticketId, quantity: input.quantity, time: input.time } }],
      ...(input.customer ? { customer: input.customer } : {}),
      finalize: true,
    });
    if (replayed) return { order, replayed };
    await recordDeskSale(tx, order.id, input.payment, ctx.staff.id);
    await recordAudit(txCtx, ctx.staff, {
      action: 'order.sell', entityType: 'order', entityId: order.id, museumId: order.museumIds[0] ?? null,
      after: { ticket_id: input.ticketId, time: input.time, quantity: input.quantity, payment: input.payment, delivery: input.delivery, total_cents: order.totalPriceCents },
    });
    return { order: { ...order, paymentMethod: input.payment, staffUserId: ctx.staff.id }, replayed };
  });
}
