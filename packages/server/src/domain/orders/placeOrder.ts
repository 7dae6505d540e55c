// The write of a new order in one round trip: every value is decided here in TypeScript (the
// order row, its items, barcodes, which documents, the capacity demands) and handed to the SQL
// function order_place (src/db/sql/order_place.sql), which performs the inserts in order and
// claims capacity last, under the slot locks. On a sold-out slot it raises and nothing of the
// call remains. Without a transaction around it, the call is its own transaction: the slot lock
// is held from the claim to the statement's commit and not one round trip longer (ADR 0009).
// Under load, several such calls share one transaction and commit (group commit,
// db/repositories/ordersBatch.ts, ADR 0010).
import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { insertOrder } from '../../db/repositories/orders.ts';
import { inTransaction } from '../../db/transaction.ts';
import { claimErrors, claimSpec } from '../capacity/claimCapacity.ts';
import type { ResolvedClaim } from '../capacity/types.ts';
import type { Ctx } from '../context.ts';
import { documentViewsFromJson, retentionEnd } from '../documents/internal.ts';
import { orderDocumentKinds } from '../documents/queueOrderDocuments.ts';
import { admissionsOf, newBarcode } from './barcodes.ts';
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

export async function placeOrder(db: DbOrTx, ctx: Ctx, p: PlaceOrder): Promise<OrderView> {
  const now = ctx.clock.now();
  const expiresAt = p.finalize ? null : new Date(now.getTime() + ctx.config.orderPendingMinutes * 60_000);
  // One barcode per admission: each ticket or event seat, one per tour booking (a group).
  const counts = p.finalize ? p.items.map((i) => admissionsOf(i.type, i.quantity)) : [];
  const total = counts.reduce((s, n) => s + n, 0);
  const claim = claimSpec(ctx, p.resolved, expiresAt, p.reservationIds);
  // Outside a transaction the order may share its commit with others (ADR 0010). Not in the
  // control runs that switch the locks off: those must race exactly as they always did.
  const batched = !inTransaction(db) && ctx.config.orderBatchMax > 1 && claim.lock_timeout !== null && claim.race_window_ms === 0;
  const placed = await claimErrors(() =>
    insertOrder(
      db,
      {
        order: {
          accountId: p.accountId,
          foreignId: p.foreignId,
          token: randomBytes(16).toString('base64url'),
          status: p.finalize ? 'finalized' : 'pending',
          source: ctx.principal.access === 'reseller' ? 'resellershop' : ctx.principal.access === 'shop' ? 'shop' : 'api',
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
        },
        items: p.items.map((i, n) => ({
          orderId: 0, // set by order_place
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
          voucherTicketId: i.voucherTicketId,
          codeLanguage: i.codeLanguage,
          codeRecipient: i.codeRecipient,
        })),
        consume: p.reservationIds,
        barcodes: counts,
        codes: total ? Array.from({ length: total + SPARE_CODES }, newBarcode) : [],
        documents: p.finalize ? orderDocumentKinds(':order_id', p.items.map((i) => i.type)) : [],
        document: { available_until: retentionEnd(ctx, now).toISOString() },
        claim,
      },
      batched ? { maxBatch: ctx.config.orderBatchMax, lanes: ctx.config.orderBatchLanes } : null,
    ),
  );

  return {
    ...placed.order,
    status: statusAt(placed.order, now),
    documents: documentViewsFromJson(placed.documents, now),
    items: placed.items.map((row, n) => ({
      ...row,
      zone: p.items[n]!.zone,
      eventId: p.items[n]!.eventId,
      barcodes: placed.barcodes.filter((b) => b.orderItemId === row.id).map(({ id, code, status }) => ({ id, code, status })),
      entriesUsed: 0, // just placed: nobody has entered yet
    })),
  };
}
