// What a cancellation would do, shown before it is done (the console's confirmation step): which
// units go, what they cost, and what would be refunded, computed as the cancellation and its
// refund would (partPriceCents, and the money kept beyond the order's new total).
import { partPriceCents } from '../../db/repositories/orderSplit.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { listPayments } from '../payments/listPayments.ts';
import { refundable } from '../payments/refunds.ts';
import { partProblems, type CancelInput } from './cancelOrder.ts';
import { getOrder } from './getOrder.ts';

export interface CancellationPreview {
  lines: Array<{ itemId: number; quantity: number; of: number; cents: number }>;
  cancelCents: number;
  refundCents: number;
}

export async function previewCancellation(ctx: Ctx, idOrToken: string, parts: NonNullable<CancelInput['parts']>): Promise<CancellationPreview> {
  const order = await getOrder(ctx, idOrToken);
  const problems = partProblems(order.items, parts);
  if (problems.length) throw new DomainError('VALIDATION_FAILED', 'order could not be cancelled', { errors: problems });
  const lines = parts.map((p) => {
    const item = order.items.find((i) => i.id === p.item_id)!;
    return { itemId: item.id, quantity: p.quantity, of: item.quantity, cents: partPriceCents(item, p.quantity) };
  });
  const cancelCents = lines.reduce((s, l) => s + l.cents, 0);
  const money = await listPayments(ctx, String(order.id));
  const kept = money.payments.reduce((s, p) => s + refundable(p), 0);
  const refundCents = Math.max(0, Math.min(kept, kept - (order.totalPriceCents - cancelCents)));
  return { lines, cancelCents, refundCents };
}
