// POST /orders: one transaction for the whole order (all items or none). The order row is the
// first write: with a foreign_id, a concurrent duplicate then blocks on the unique index
// (account_id, foreign_id) before doing any capacity work, and gets a unique violation as soon
// as the winner commits. That violation rolls our transaction back and we answer with the
// winner (same content) or FOREIGN_ID_CONFLICT (different content): never a second order.
// Orders that write a customer or consume reservations first take a lock on the foreign_id
// instead, for the same effect.
import type { DbOrTx, Tx } from '../../db/client.ts';
import { isDbError } from '../../db/errors.ts';
import { lockKey as lockAdvisory } from '../../db/repositories/capacity.ts';
import { findOrderByForeignId } from '../../db/repositories/orders.ts';
import { inTransaction, transaction } from '../../db/transaction.ts';
import { resolveClaims } from '../capacity/claimCapacity.ts';
import { checkHoldLimits, limitedAccount } from '../capacity/holdLimits.ts';
import { lockKey } from '../capacity/locks.ts';
import type { Ctx } from '../context.ts';
import { resolveOrderCustomer } from '../customers/resolveOrderCustomer.ts';
import { DomainError } from '../errors.ts';
import { lockOwnReservations } from '../reservations/internal.ts';
import { requestHash } from './hash.ts';
import { reload, type OrderView } from './internal.ts';
import { prepareItems, type OrderItemInput, type PreparedItem } from './items.ts';
import { placeOrder, type PlaceOrder } from './placeOrder.ts';
import { discountItems, recordUses } from '../vouchers/promoApply.ts';
import { discountViews } from './discounts.ts';
import { checkLineMix, isCodeLine, issueOrderCodes } from '../vouchers/orderLines.ts';
import type { ResolvedClaim } from '../capacity/types.ts';

export interface CreateOrderInput {
  foreign_id?: string;
  comment?: string;
  reference?: string;
  customer?: object;
  customer_id?: number | string;
  items: OrderItemInput[];
  total?: number;
  finalize?: boolean;
  /** Promo codes and single-purpose vouchers (docs/vouchers.md): applied inside the price calculation below. */
  codes?: string[];
}

function accountOf(ctx: Ctx): number {
  const p = ctx.principal;
  if (p.kind !== 'account' || p.access === 'public') throw new DomainError('FORBIDDEN', 'this token may not write orders');
  return p.accountId;
}

async function existingByForeignId(db: DbOrTx, ctx: Ctx, accountId: number, foreignId: string, hash: string) {
  const row = await findOrderByForeignId(db, accountId, foreignId);
  if (!row) return null;
  if (row.requestHash !== hash) {
    throw new DomainError('FOREIGN_ID_CONFLICT', 'an order with this foreign_id exists with different content');
  }
  return { order: await reload(db, ctx, row.id), replayed: true };
}

const isForeignIdViolation = (err: unknown) => isDbError(err, 'UNIQUE_VIOLATION', 'orders_account_foreign_id');

export async function createOrder(ctx: Ctx, input: CreateOrderInput): Promise<{ order: OrderView; replayed: boolean }> {
  const accountId = accountOf(ctx);
  const hash = requestHash(input);
  const foreignId = input.foreign_id;
  if (foreignId) {
    const replay = await existingByForeignId(ctx.db, ctx, accountId, foreignId, hash);
    if (replay) return replay;
  }
  // Everything that only needs master data is checked before any write: the items (bookable by
  // this caller, quantities, attendees, prices) and the claims they make (entry grid, calendar,
  // closures, past dates, quantity above capacity). Those rows come from the process memo, so a
  // valid order usually reaches its write without a query, and an invalid one writes nothing.
  const items = await prepareItems(ctx.db, ctx, input.items);
  checkLineMix(items, input.codes?.length ?? 0);
  const applied = input.codes?.length ? await discountItems(ctx, input.codes, items) : [];
  const total = items.reduce((s, i) => s + i.priceCents, 0);
  if (input.total !== undefined && input.total !== total) {
    throw new DomainError('TOTAL_MISMATCH', `total ${input.total} does not match the sum of the items (${total} cents)`);
  }
  const resolved = await resolveItemClaims(ctx, items);
  // A pending order holds capacity like a reservation (the holds it consumes are replaced): for
  // a limited account it is checked and placed in one transaction, under the account's hold lock
  // (holdLimits.ts). A finalized one is a sale and never limited, so its group-commit path is
  // untouched.
  // go~mus semantics: an order without a `finalize` key is valid at once; `false` asks for a draft.
  const finalize = input.finalize !== false;
  const limited = !finalize && limitedAccount(ctx) !== null;
  const order: Omit<PlaceOrder, 'customerId' | 'reservationIds'> = {
    accountId,
    foreignId: foreignId ?? null,
    comment: input.comment ?? null,
    reference: input.reference ?? null,
    requestHash: hash,
    finalize,
    items,
    resolved,
  };
  const hasCustomer = input.customer !== undefined || input.customer_id !== undefined;
  const hasReservations = items.some((i) => i.reservationTokens.length > 0);
  // Gift cards and vouchers sold: their codes are issued in the transaction that finalizes.
  const sellsCodes = items.some((i) => isCodeLine(i.type));
  try {
    // The answer is built from the rows the write returns: a 201 is only sent for what
    // committed, and a failure after the commit cannot turn a stored order into an error.
    if (!hasCustomer && !hasReservations && !limited && applied.length === 0 && !sellsCodes && !inTransaction(ctx.db)) {
      // The common case: the single order_place statement is the whole transaction.
      return { order: await placeOrder(ctx.db, ctx, { ...order, customerId: null, reservationIds: [] }), replayed: false };
    }
    return await transaction(ctx.db, async (tx) => {
      if (foreignId) {
        // A concurrent duplicate would otherwise create its customer or lock the reservations
        // before reaching the order's unique index: it waits here for the first one instead,
        // and then finds it.
        await lockAdvisory(tx, lockKey('order-foreign-id', accountId, foreignId));
        const replay = await existingByForeignId(tx, ctx, accountId, foreignId, hash);
        if (replay) return replay;
      }
      const customerId = hasCustomer
        ? await resolveOrderCustomer(tx, ctx, {
            ...(input.customer !== undefined ? { customer: input.customer } : {}),
            ...(input.customer_id !== undefined ? { customer_id: input.customer_id } : {}),
          })
        : null;
      const reservationIds = await consumeReservations(tx, ctx, items);
      // After the reservations' row locks, before the pools' locks (locks.ts).
      if (limited) await checkHoldLimits(tx, ctx, resolved, { exceptReservationTokens: items.flatMap((i) => i.reservationTokens) });
      const placed = await placeOrder(tx, ctx, { ...order, customerId, reservationIds });
      // In the order's transaction: a code past its limits rolls the whole order back.
      if (applied.length) {
        await recordUses(tx, ctx, placed, applied, emailOf(input.customer));
        placed.discounts = discountViews(applied, placed.items.map((i) => i.id));
      }
      if (!sellsCodes) return { order: placed, replayed: false };
      if (finalize) await issueOrderCodes(tx, ctx, placed.id);
      return { order: await reload(tx, ctx, placed.id), replayed: false };
    });
  } catch (err) {
    if (foreignId && isForeignIdViolation(err)) {
      const replay = await existingByForeignId(ctx.db, ctx, accountId, foreignId, hash);
      if (replay) return replay;
    }
    throw err;
  }
}

/**
 * The capacity each item claims, resolved (entry grid, calendar, capacity), in item order. GiftCard
 * and Voucher lines book no visit: they claim nothing, and stand at the moment of sale.
 */
async function resolveItemClaims(ctx: Ctx, items: PreparedItem[]): Promise<ResolvedClaim[]> {
  const got = await resolveClaims(ctx.db, ctx, items.flatMap((i) => (i.claim ? [i.claim] : [])));
  let k = 0;
  return items.map((i) => (i.claim ? got[k++]! : { museumId: i.museumId, startAt: i.startAt, endAt: i.startAt, demands: [] }));
}

/** Locks the caller's named reservations and checks each one belongs to its item's product. */
async function consumeReservations(tx: Tx, ctx: Ctx, items: PreparedItem[]): Promise<number[]> {
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

function emailOf(customer: object | undefined): string | null {
  const e = (customer as { email?: unknown } | undefined)?.email;
  return typeof e === 'string' && e.trim() ? e.trim().toLowerCase() : null;
}
