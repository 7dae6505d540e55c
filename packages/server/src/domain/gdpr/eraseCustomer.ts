// POST /customers/:id/erase and `atrium customer erase ID` (GDPR Art. 17): anonymises one person
// everywhere we store them, in one transaction, and records that it happened (customer_erasures,
// no personal data). Every free text tied to the person goes: the customer's fields, the orders'
// comment, reference and foreign_id, attendee names, the requests' contact, notes, foreign_id
// and decline reason, uploads' names and the bytes of every document but the tax documents.
// What tax law requires for invoices is kept and named in the answer. Repeating the call
// answers the first erasure again (already_erased). The erasure is of the person, so it reaches
// their records in every museum, once the caller may reach the person (ADR 0015).
import {
  anonymiseAttendees, anonymiseCustomer, clearOrderTexts, clearRequestTexts, deleteStoredAnswersNaming, insertErasure, wipeDocuments,
} from '../../db/repositories/gdpr.ts';
import { transaction } from '../../db/transaction.ts';
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
  return transaction(ctx.db, async (tx) => {
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
    const idem = await deleteStoredAnswersNaming(tx, person.email, person.id);
    // RFC 2606 reserves .invalid: the address can never reach anybody.
    const erasedEmail = `erased-${person.id}@erased.invalid`;
    await anonymiseCustomer(tx, person.id, { name: ERASED, email: erasedEmail }, now);
    const comments = await clearOrderTexts(tx, orderIds, now);
    const attendees = rec.items.reduce((n, i) => n + (i.attendees?.length ?? 0), 0);
    await anonymiseAttendees(tx, orderIds, ERASED);
    const contacts = rec.requests.filter((r) => r.contact).length;
    const notes = rec.requests.filter((r) => r.notes).length;
    await clearRequestTexts(tx, requestIds, ERASED, now);
    // Tickets and confirmations print the person's name, uploads may be anything: their bytes
    // go, and uploads lose the name the client gave them.
    const wiped = await wipeDocuments(tx, rec.documents.filter((d) => !TAX_KINDS.includes(d.kind)).map((d) => d.id), TAX_KINDS, now);
    const outbox = await eraseFromOutbox(tx, ctx, { orders: orderIds, requests: requestIds, documents: rec.documents.map((d) => d.id) }, person.email, erasedEmail);
    const summary: ErasureSummary = {
      customer: 1,
      order_comments: comments,
      attendees,
      request_contacts: contacts,
      request_notes: notes,
      documents_wiped: wiped,
      idempotency_records: idem,
      invoices_retained: invoices.length,
      outbox_events: outbox.events,
      mails: outbox.mails,
    };
    await insertErasure(tx, { customerId: person.id, erasedByAccountId: p.accountId, erasedAt: now, summary: { ...summary } });
    return { customer_id: person.id, erased_at: isoInZone(now, zone), already_erased: false, anonymised: summary, retained, logs: LOGS };
  });
}
