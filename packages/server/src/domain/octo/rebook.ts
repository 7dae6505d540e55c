// Places (or replaces) the order behind an OCTO booking. A change of product, date or unit count
// cancels the old order and places a new one in the SAME transaction: the old places are
// released first and the new ones claimed under the usual rules (sellability, capacity, hold
// limits), so a refusal rolls everything back and the booking is left as it was.
import type { Tx } from '../../db/client.ts';
import { markOrderTestMode } from '../../db/repositories/octo.ts';
import { extendHold } from '../capacity/extendHold.ts';
import type { Ctx } from '../context.ts';
import { cancelOrder } from '../orders/cancelOrder.ts';
import { createOrder } from '../orders/createOrder.ts';
import type { OrderView } from '../orders/internal.ts';
import type { OrderItemInput } from '../orders/items.ts';
import { within, type OctoTarget } from './internal.ts';

export interface PlaceInput {
  target: OctoTarget;
  quantity: number;
  notes: string | null;
  resellerReference: string | null;
  testMode: boolean;
  finalize: boolean;
  expirationMinutes?: number | undefined;
}

/** The go~mus order item a target books (the same item the go~mus API takes). */
function itemOf(t: OctoTarget, quantity: number): OrderItemInput {
  if (t.kind === 'Event') return { type: 'Event', attributes: { id: t.id, quantity } };
  if (t.kind === 'Tour') return { type: 'Tour', attributes: { id: t.id, quantity, start_time: t.time, ...(t.languageId !== undefined ? { language_id: t.languageId } : {}) } };
  return { type: 'Ticket', attributes: { id: t.id, quantity, time: t.time } };
}

export async function placeOctoOrder(tx: Tx, ctx: Ctx, input: PlaceInput): Promise<OrderView> {
  const c = within(ctx, tx);
  const { order } = await createOrder(c, {
    items: [itemOf(input.target, input.quantity)],
    ...(input.notes !== null ? { comment: input.notes } : {}),
    ...(input.resellerReference !== null ? { reference: input.resellerReference } : {}),
    finalize: input.finalize,
  });
  if (input.testMode) await markOrderTestMode(tx, order.id);
  if (!input.finalize && input.expirationMinutes !== undefined) {
    await extendHold(tx, c, order, order.items.map((i) => i.id), input.expirationMinutes);
  }
  return order;
}

/** Cancels `old` and places its replacement; returns the new order's id. */
export async function replaceOctoOrder(tx: Tx, ctx: Ctx, old: OrderView, input: PlaceInput): Promise<number> {
  await cancelOrder(within(ctx, tx), String(old.id), {});
  return (await placeOctoOrder(tx, ctx, input)).id;
}
