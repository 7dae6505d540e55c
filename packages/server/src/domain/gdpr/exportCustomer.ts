// GET /customers/:id/export and `atrium customer export ID` (GDPR Art. 15 and 20): everything
// stored about one person, as JSON: the customer record, their orders with items and attendees,
// their requests with contacts, and the metadata of the documents of both (the bytes are fetched
// through /documents/:id/download). Within the caller's museum scope; `complete` says whether
// that scope held all of it (the command line always sees everything).
import type { Ctx } from '../context.ts';
import { toRecord, type CustomerRecord } from '../customers/internal.ts';
import { statusAt as documentStatus } from '../documents/internal.ts';
import { statusAt as orderStatus } from '../orders/internal.ts';
import { isoInZone } from '../time.ts';
import { erasureOf, findPerson, personRecords, staff } from './person.ts';

export interface CustomerExport {
  exported_at: string;
  complete: boolean;
  customer: CustomerRecord;
  erasure: { erased_at: string } | null;
  orders: Array<Record<string, unknown>>;
  requests: Array<Record<string, unknown>>;
  attendees: Array<{ order_id: number; item_id: number; name: string; surname: string }>;
  contacts: Array<{ request_id: number; name: string; surname: string | null; email: string | null; phone: string | null; role: string | null }>;
  documents: Array<Record<string, unknown>>;
}

export async function exportCustomer(ctx: Ctx, input: { ref: string | number }): Promise<CustomerExport> {
  const p = staff(ctx.principal);
  const zone = ctx.config.zone;
  const iso = (d: Date | null) => (d ? isoInZone(d, zone) : null);
  const now = ctx.clock.now();
  const person = await findPerson(ctx.db, ctx, input.ref);
  const rec = await personRecords(ctx.db, person.id, p);
  const erasure = await erasureOf(ctx.db, person.id);
  return {
    exported_at: isoInZone(now, zone),
    complete: rec.complete,
    customer: toRecord(person, zone),
    erasure: erasure ? { erased_at: isoInZone(erasure.erasedAt, zone) } : null,
    orders: rec.orders.map((o) => ({
      id: o.id,
      foreign_id: o.foreignId,
      status: orderStatus(o, now),
      museum_ids: o.museumIds,
      total_price_cents: o.totalPriceCents,
      currency: o.currency,
      comment: o.comment,
      reference: o.reference,
      created_at: iso(o.createdAt),
      finalized_at: iso(o.finalizedAt),
      cancelled_at: iso(o.cancelledAt),
      items: rec.items
        .filter((i) => i.orderId === o.id)
        .map((i) => ({ id: i.id, type: i.type, status: i.status, quantity: i.quantity, start_time: iso(i.startAt), price_cents: i.priceCents, attendees: i.attendees ?? [] })),
    })),
    requests: rec.requests.map((r) => ({
      id: r.id,
      foreign_id: r.foreignId,
      status: r.status,
      date: r.date,
      participants: r.participants,
      companions: r.companions,
      notes: r.notes,
      contact: r.contact,
      museum_ids: r.museumIds,
      order_id: r.orderId,
      created_at: iso(r.createdAt),
      decided_at: iso(r.decidedAt),
    })),
    attendees: rec.items.flatMap((i) => (i.attendees ?? []).map((a) => ({ order_id: i.orderId, item_id: i.id, name: a.name, surname: a.surname }))),
    contacts: rec.requests.filter((r) => r.contact).map((r) => ({ request_id: r.id, ...r.contact! })),
    documents: rec.documents.map((d) => ({
      id: d.id,
      kind: d.kind,
      order_id: d.orderId,
      request_id: d.requestId,
      filename: d.filename,
      content_type: d.contentType,
      byte_size: d.byteSize,
      status: documentStatus(d, now),
      invoice_number: d.invoiceNumber,
      created_at: iso(d.createdAt),
      available_until: iso(d.availableUntil),
    })),
  };
}
