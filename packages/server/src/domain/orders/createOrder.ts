// POST /orders: one transaction for the whole order (all items or none). The order row is
// inserted first: with a foreign_id, a concurrent duplicate then blocks on the unique index
// (account_id, foreign_id) before doing any capacity work, and gets a unique violation as soon
// as the winner commits. That violation rolls our transaction back and we answer with the
// winner (same content) or FOREIGN_ID_CONFLICT (different content): never a second order.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { orderItems, orders, reservations } from '../../db/schema/index.ts';
import { claimCapacity } from '../capacity/index.ts';
import type { Ctx } from '../context.ts';
import { resolveOrderCustomer } from '../customers/resolveOrderCustomer.ts';
import { DomainError } from '../errors.ts';
import { lockOwnReservations } from '../reservations/internal.ts';
import { recordFinalized } from './finalize.ts';
import { requestHash } from './hash.ts';
import { reload, type OrderView } from './internal.ts';
import { prepareItems, type OrderItemInput } from './items.ts';

export interface CreateOrderInput {
  foreign_id?: string;
  comment?: string;
  reference?: string;
  customer?: object;
  customer_id?: number | string;
  items: OrderItemInput[];
  total?: number;
  finalize?: boolean;
}

function accountOf(ctx: Ctx): number {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access === 'public') throw new DomainError('FORBIDDEN', 'this token may not write orders');
  return p.accountId;
}

async function existingByForeignId(ctx: Ctx, accountId: number, foreignId: string, hash: string) {
  const [row] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.foreignId, foreignId)));
  if (!row) return null;
  if (row.requestHash !== hash) {
    throw new DomainError('FOREIGN_ID_CONFLICT', 'an order with this foreign_id exists with different content');
  }
  return { order: await reload(ctx.db, ctx, row.id), replayed: true };
}

function isForeignIdViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e?.code === '23505' ? e : e?.cause;
  return pg?.code === '23505' && pg.constraint === 'orders_account_foreign_id';
}

export async function createOrder(ctx: Ctx, input: CreateOrderInput): Promise<{ order: OrderView; replayed: boolean }> {
  const accountId = accountOf(ctx);
  const hash = requestHash(input);
  const foreignId = input.foreign_id;
  if (foreignId) {
    const replay = await existingByForeignId(ctx, accountId, foreignId, hash);
    if (replay) return replay;
  }
  try {
    // The answer is read inside the transaction: a 201 is only sent for what committed, and a
    // failure after the commit cannot turn a stored order into an error answer.
    const order = await ctx.db.transaction((tx) => insertOrder(tx, ctx, accountId, input, hash));
    return { order, replayed: false };
  } catch (err) {
    if (foreignId && isForeignIdViolation(err)) {
      const replay = await existingByForeignId(ctx, accountId, foreignId, hash);
      if (replay) return replay;
    }
    throw err;
  }
}

type Tx = Parameters<Parameters<Ctx['db']['transaction']>[0]>[0];

async function insertOrder(tx: Tx, ctx: Ctx, accountId: number, input: CreateOrderInput, hash: string): Promise<OrderView> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.orderPendingMinutes * 60_000);
  const [order] = await tx
    .insert(orders)
    .values({
      accountId,
      foreignId: input.foreign_id ?? null,
      token: randomBytes(16).toString('base64url'),
      status: 'pending',
      source: ctx.principal.access === 'reseller' ? 'resellershop' : 'api',
      comment: input.comment ?? null,
      reference: input.reference ?? null,
      totalPriceCents: 0,
      currency: ctx.config.currency,
      requestHash: hash,
      createdAt: now,
      updatedAt: now,
      expiresAt,
    })
    .returning();

  const customerId =
    input.customer !== undefined || input.customer_id !== undefined
      ? await resolveOrderCustomer(tx, ctx, {
          ...(input.customer !== undefined ? { customer: input.customer } : {}),
          ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
        })
      : null;

  const items = await prepareItems(tx, ctx, input.items);
  const total = items.reduce((s, i) => s + i.priceCents, 0);
  if (input.total !== undefined && input.total !== total) {
    throw new DomainError('TOTAL_MISMATCH', `total ${input.total} does not match the sum of the items (${total} cents)`);
  }

  const reservationIds = await consumeReservations(tx, ctx, items);
  const inserted = await tx
    .insert(orderItems)
    .values(
      items.map((i) => ({
        orderId: order!.id,
        type: i.type,
        museumId: i.museumId,
        ticketId: i.ticketId,
        eventDateId: i.eventDateId,
        tourId: i.tourId,
        languageId: i.languageId,
        quantity: i.quantity,
        startAt: i.startAt,
        unitPriceCents: i.unitPriceCents,
        priceCents: i.priceCents,
        vatPct: i.vatPct,
        taxIncluded: i.taxIncluded,
        attendees: i.attendees,
      })),
    )
    .returning({ id: orderItems.id });
  if (reservationIds.length) {
    await tx
      .update(reservations)
      .set({ consumedAt: now, consumedByOrderId: order!.id })
      .where(inArray(reservations.id, reservationIds));
  }
  await tx
    .update(orders)
    .set({ totalPriceCents: total, customerId, museumIds: [...new Set(items.map((i) => i.museumId))].sort((a, b) => a - b) })
    .where(eq(orders.id, order!.id));
  // With `finalize: true` the order is finalized before capacity is claimed, and the claim then
  // takes permanent allocations: everything but the claim happens before the slot locks are
  // taken, so they are held only for the claim and the commit (the serialised section on a hot
  // slot). A refused claim rolls the whole order back, barcodes and documents included.
  if (input.finalize) {
    await recordFinalized(
      tx,
      ctx,
      order!.id,
      items.map((i, n) => ({ id: inserted[n]!.id, type: i.type, quantity: i.quantity })),
    );
  }
  // The answer is read before the claim for the same reason.
  const view = await reload(tx, ctx, order!.id);
  // The reservations' held capacity is released under the same slot locks that take it for the
  // order, so no competitor can slip in between.
  const resolved = await claimCapacity(
    tx,
    ctx,
    items.map((i, n) => ({ claim: i.claim, holder: { orderItemId: inserted[n]!.id }, expiresAt: input.finalize ? null : expiresAt })),
    { releaseReservationIds: reservationIds },
  );
  for (const [n, r] of resolved.entries()) {
    if (r.startAt.getTime() !== items[n]!.startAt.getTime()) {
      await tx.update(orderItems).set({ startAt: r.startAt }).where(eq(orderItems.id, inserted[n]!.id));
      const shown = view.items.find((i) => i.id === inserted[n]!.id);
      if (shown) shown.startAt = r.startAt;
    }
  }
  return view;
}

/** Locks the caller's named reservations and checks each one belongs to its item's product. */
async function consumeReservations(tx: Tx, ctx: Ctx, items: Awaited<ReturnType<typeof prepareItems>>): Promise<number[]> {
  const tokens = items.flatMap((i) => i.reservationTokens);
  if (tokens.length === 0) return [];
  if (new Set(tokens).size !== tokens.length) {
    throw new DomainError('VALIDATION_FAILED', 'order could not be saved', { errors: ['a reservation is named more than once'] });
  }
  const rows = await lockOwnReservations(tx, ctx, tokens);
  const byToken = new Map(rows.map((r) => [r.token, r]));
  const errors: string[] = [];
  items.forEach((item, n) => {
    for (const token of item.reservationTokens) {
      const r = byToken.get(token);
      if (!r || r.ticketId !== item.ticketId || r.eventDateId !== item.eventDateId) {
        errors.push(`items[${n}]: reservation ${token} is for another ${item.type === 'Event' ? 'date' : 'ticket'}`);
      }
    }
  });
  if (errors.length) throw new DomainError('VALIDATION_FAILED', 'order could not be saved', { errors });
  return rows.map((r) => r.id);
}
