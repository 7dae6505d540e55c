// POST /customers/:id/erase and `atrium customer erase ID` (GDPR Art. 17): anonymises one person
// everywhere we store them, in one transaction, and records that it happened (customer_erasures,
// no personal data). What tax law requires for invoices is kept and named in the answer. Repeating
// the call answers the first erasure again (already_erased). The erasure is of the person, so it
// reaches their records in every museum, once the caller may reach the person (ADR 0015).
import { and, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { customerErasures, customers, documents, idempotencyKeys, orderItems, orders, requests } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { isoInZone } from '../time.ts';
import { eraseFromOutbox } from './outbox.ts';
import { erasureOf, findPerson, personRecords, staff } from './person.ts';

export const ERASED = 'Erased';
/** Tax documents: invoices, credit notes and their e-invoice XML are kept unchanged. */
const TAX_KINDS = ['invoice', 'credit_note', 'e_invoice'];

/** What one erasure changed, by kind of record (stored with the erasure, answered to the caller). */
export interface ErasureSummary {
  customer: number;
  order_comments: number;
  attendees: number;
  request_contacts: number;
  request_notes: number;
  documents_wiped: number;
  idempotency_records: number;
  invoices_retained: number;
  outbox_events: number;
  mails: number;
}

export interface ErasureAnswer {
  customer_id: number;
  erased_at: string;
  already_erased: boolean;
  anonymised: ErasureSummary;
  retained: Array<{ what: string; ids: number[]; reason: string }>;
  logs: string;
}

const INVOICE_REASON =
  'Invoices and credit notes name the buyer and must be kept unchanged for the statutory period (Germany: §147 AO, §14b UStG, 10 years; ' +
  'the same holds in most EU states). They stay until the document retention (ATRIUM_DOCUMENT_RETENTION_DAYS) purges them.';
const ORDER_REASON =
  'Orders keep amounts, items, dates and barcodes for bookkeeping and admission; they no longer name the person.';
const LOGS =
  'Server logs hold no customer fields: request bodies are never logged, personal query parameters are masked and failed ' +
  'statements are logged without their values (docs/operations.md, "Logs"). Nothing to erase there.';

export async function eraseCustomer(ctx: Ctx, input: { ref: string | number }): Promise<ErasureAnswer> {
  const p = staff(ctx.principal);
  const zone = ctx.config.zone;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const person = await findPerson(tx, ctx, input.ref, true);
    const earlier = await erasureOf(tx, person.id);
    const rec = await personRecords(tx, person.id, p, true);
    const invoices = rec.documents.filter((d) => TAX_KINDS.includes(d.kind)).map((d) => d.id);
    const retained = [
      { what: 'invoices and credit notes', ids: invoices, reason: INVOICE_REASON },
      { what: 'orders', ids: rec.orders.map((o) => o.id), reason: ORDER_REASON },
    ];
    if (earlier) {
      return { customer_id: person.id, erased_at: isoInZone(earlier.erasedAt, zone), already_erased: true, anonymised: earlier.summary as unknown as ErasureSummary, retained, logs: LOGS };
    }
    const orderIds = rec.orders.map((o) => o.id);
    const requestIds = rec.requests.map((r) => r.id);
    // Stored answers of Idempotency-Key requests may repeat the person's data (kept 24 hours).
    const emailInJson = JSON.stringify(person.email).slice(1, -1);
    const idem = await tx
      .delete(idempotencyKeys)
      .where(sql`strpos(${idempotencyKeys.responseBody}, ${emailInJson}) > 0
        or strpos(${idempotencyKeys.responseBody}, ${`"customer_id":${person.id},`}) > 0
        or strpos(${idempotencyKeys.responseBody}, ${`"customer_id":${person.id}}`}) > 0`)
      .returning({ key: idempotencyKeys.key });

    const erasedEmail = `erased-${person.id}@erased.invalid`;
    await tx
      .update(customers)
      .set({
        foreignId: null, salutation: null, title: null, name: ERASED, surname: ERASED,
        // RFC 2606 reserves .invalid: the address can never reach anybody.
        email: erasedEmail,
        phone: null, institution: null, street: null, zip: null, city: null, country: null, locale: null, updatedAt: now,
      })
      .where(eq(customers.id, person.id));
    const comments = orderIds.length
      ? await tx.update(orders).set({ comment: null, updatedAt: now }).where(and(inArray(orders.id, orderIds), isNotNull(orders.comment))).returning({ id: orders.id })
      : [];
    const attendees = rec.items.reduce((n, i) => n + (i.attendees?.length ?? 0), 0);
    if (orderIds.length) {
      await tx
        .update(orderItems)
        .set({ attendees: sql`(select coalesce(jsonb_agg(jsonb_build_object('name', ${ERASED}::text, 'surname', ${ERASED}::text)), '[]'::jsonb) from jsonb_array_elements(${orderItems.attendees}))` })
        .where(and(inArray(orderItems.orderId, orderIds), isNotNull(orderItems.attendees)));
    }
    const contacts = rec.requests.filter((r) => r.contact).length;
    const notes = rec.requests.filter((r) => r.notes).length;
    if (requestIds.length) {
      await tx.update(requests).set({ contact: null, notes: null, updatedAt: now }).where(inArray(requests.id, requestIds));
    }
    // Tickets and confirmations print the person's name, uploads may be anything: their bytes
    // go. The generation bump makes a render job still running discard its result.
    const wipe = rec.documents.filter((d) => !TAX_KINDS.includes(d.kind)).map((d) => d.id);
    const wiped = wipe.length
      ? await tx
          .update(documents)
          .set({ content: null, status: 'expired', purgedAt: now, updatedAt: now, renderPending: false, generation: sql`${documents.generation} + 1`, filename: sql`case when ${documents.kind} = 'attachment' then 'erased' else ${documents.filename} end` })
          .where(and(inArray(documents.id, wipe), notInArray(documents.kind, TAX_KINDS)))
          .returning({ id: documents.id })
      : [];
    const outbox = await eraseFromOutbox(tx, ctx, { orders: orderIds, requests: requestIds, documents: rec.documents.map((d) => d.id) }, person.email, erasedEmail);
    const summary: ErasureSummary = {
      customer: 1,
      order_comments: comments.length,
      attendees,
      request_contacts: contacts,
      request_notes: notes,
      documents_wiped: wiped.length,
      idempotency_records: idem.length,
      invoices_retained: invoices.length,
      outbox_events: outbox.events,
      mails: outbox.mails,
    };
    await tx.insert(customerErasures).values({ customerId: person.id, erasedByAccountId: p.accountId, erasedAt: now, summary: { ...summary } });
    return { customer_id: person.id, erased_at: isoInZone(now, zone), already_erased: false, anonymised: summary, retained, logs: LOGS };
  });
}
