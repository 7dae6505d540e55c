// The write of a new order in one round trip: every value is decided here in TypeScript (the
// order row, its items, barcodes, which documents, the capacity demands) and handed to the SQL
// function order_place (src/db/sql/order_place.sql), which performs the inserts in order and claims
// capacity last, under the slot locks. On a sold-out slot it raises and nothing of the call
// remains. Without a transaction around it, the call is its own transaction: the slot lock is
// held from the claim to the statement's commit and not one round trip longer (ADR 0009). Under
// load, several such calls share one transaction and commit (orderBatches.ts, ADR 0010).
import { randomBytes } from 'node:crypto';
import { is, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rowFromJson, rowToJson } from '../../db/json.ts';
import { barcodes as barcodeTable, orderItems, orders } from '../../db/schema/index.ts';
import { claimErrors, claimSpec, type ResolvedClaim } from '../capacity/index.ts';
import type { Ctx } from '../context.ts';
import { documentViewsFromJson, retentionEnd, type DocumentJson } from '../documents/internal.ts';
import { orderDocumentKinds } from '../documents/queueOrderDocuments.ts';
import { newBarcode } from './barcodes.ts';
import { orderBatches } from './orderBatches.ts';
import { statusAt, type OrderView } from './internal.ts';
import type { PreparedItem } from './items.ts';

/** Extra candidates for barcode collisions (10^12 codes: one is already very unlikely). */
const SPARE_CODES = 4;

export interface PlaceOrder {
  accountId: number;
  foreignId: string | null;
  comment: string | null;
  reference: string | null;
  customerId: number | null;
  requestHash: string;
  finalize: boolean;
  items: PreparedItem[];
  resolved: ResolvedClaim[];
  /** Reservations turned into this order: marked consumed, their holds released under the lock. */
  reservationIds: number[];
}

interface Placed {
  order: Record<string, unknown>;
  items: Array<Record<string, unknown>>;
  barcodes: Array<Record<string, unknown>>;
  documents: DocumentJson[];
}

export async function placeOrder(db: DbOrTx, ctx: Ctx, p: PlaceOrder): Promise<OrderView> {
  const now = ctx.clock.now();
  const expiresAt = p.finalize ? null : new Date(now.getTime() + ctx.config.orderPendingMinutes * 60_000);
  // One barcode per admission: each ticket or event seat, one per tour booking (a group).
  const counts = p.finalize ? p.items.map((i) => (i.type === 'Tour' ? 1 : i.quantity)) : [];
  const total = counts.reduce((s, n) => s + n, 0);
  const payload = {
    order: rowToJson(orders, {
      accountId: p.accountId,
      foreignId: p.foreignId,
      token: randomBytes(16).toString('base64url'),
      status: p.finalize ? 'finalized' : 'pending',
      source: ctx.principal.access === 'reseller' ? 'resellershop' : 'api',
      customerId: p.customerId,
      comment: p.comment,
      reference: p.reference,
      totalPriceCents: p.items.reduce((s, i) => s + i.priceCents, 0),
      currency: ctx.config.currency,
      museumIds: [...new Set(p.items.map((i) => i.museumId))].sort((a, b) => a - b),
      requestHash: p.requestHash,
      createdAt: now,
      updatedAt: now,
      expiresAt,
      finalizedAt: p.finalize ? now : null,
    }),
    items: p.items.map((i, n) =>
      rowToJson(orderItems, {
        type: i.type,
        museumId: i.museumId,
        ticketId: i.ticketId,
        eventDateId: i.eventDateId,
        tourId: i.tourId,
        languageId: i.languageId,
        quantity: i.quantity,
        // The slot actually taken: day tickets are normalised to their first entry.
        startAt: p.resolved[n]!.startAt,
        unitPriceCents: i.unitPriceCents,
        priceCents: i.priceCents,
        vatPct: i.vatPct,
        taxIncluded: i.taxIncluded,
        attendees: i.attendees,
      }),
    ),
    consume: p.reservationIds,
    barcodes: counts,
    codes: total ? Array.from({ length: total + SPARE_CODES }, newBarcode) : [],
    documents: p.finalize ? orderDocumentKinds(':order_id', p.items.map((i) => i.type)) : [],
    document: { available_until: retentionEnd(ctx, now).toISOString() },
    claim: claimSpec(ctx, p.resolved, expiresAt, p.reservationIds),
  };
  const json = JSON.stringify(payload);
  const claim = payload.claim;
  // Outside a transaction the order may share its commit with others (ADR 0010). Not in the
  // control runs that switch the locks off: those must race exactly as they always did.
  const batched = !is(db, PgTransaction) && ctx.config.orderBatchMax > 1 && claim.lock_timeout !== null && claim.race_window_ms === 0;
  const placed = await claimErrors(async () =>
    batched
      ? ((await orderBatches((db as Db).$client, { maxBatch: ctx.config.orderBatchMax, lanes: ctx.config.orderBatchLanes }).place(json)) as Placed)
      : (await db.execute<{ placed: Placed }>(sql`select order_place(${json}::jsonb) as placed`)).rows[0]!.placed,
  );

  const order = rowFromJson(orders, placed.order);
  const items = placed.items.map((j) => rowFromJson(orderItems, j));
  const codes = placed.barcodes.map((j) => rowFromJson(barcodeTable, j));
  return {
    ...order,
    status: statusAt(order, now),
    documents: documentViewsFromJson(placed.documents, now),
    items: items.map((row, n) => ({
      ...row,
      zone: p.items[n]!.zone,
      eventId: p.items[n]!.eventId,
      barcodes: codes.filter((b) => b.orderItemId === row.id).map(({ id, code, status }) => ({ id, code, status })),
      entriesUsed: 0, // just placed: nobody has entered yet
    })),
  };
}
