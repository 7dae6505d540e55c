// Documents (docs/api-contract.md §10): generated PDFs of orders (ticket, invoice, confirmation) and uploaded
// attachments of orders or requests. The bytes live in PostgreSQL (bytea) so that every node
// behind a load balancer serves them and one backup holds everything.
import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { orders } from './booking.ts';
import { requests } from './requests.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const documents = pgTable(
  'documents',
  {
    id: serial().primaryKey(),
    kind: text().notNull(),
    orderId: integer().references(() => orders.id),
    requestId: integer().references(() => requests.id),
    /** The account that owns the order or request: resellers see exactly these documents. */
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    /** Museums of the order or request: the scope in which users see the document. */
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    filename: text().notNull(),
    contentType: text().notNull(),
    byteSize: integer().notNull().default(0),
    status: text().notNull(),
    /** Null while generating, and once wiped (rejected by the scanner, or purged after retention). */
    content: bytea(),
    sha256: text(),
    /**
     * Bumped whenever the document must be (re)generated: a render job stores its result only if
     * the generation it started from is still current, so a slow run can never overwrite the
     * newer PDF of a later cancellation.
     */
    generation: integer().notNull().default(1),
    /** Gapless per instance, assigned once (invoice documents only). */
    invoiceNumber: integer().unique(),
    /** Why the scanner rejected an upload (signature name) or why generation failed. */
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    availableUntil: timestamp({ withTimezone: true }).notNull(),
    purgedAt: timestamp({ withTimezone: true }),
    /**
     * A render job is due but not yet in the job queue: the dispatcher (src/jobs/dispatch.ts)
     * adds it and clears the flag. Orders set it instead of calling the queue in their own
     * transaction, whose NOTIFY serialises every committing transaction (ADR 0009).
     */
    renderPending: boolean().notNull().default(false),
    /** credit_note: the order items it credits (migration 0018). */
    itemIds: integer().array(),
    /** e_invoice: the invoice or credit note document whose XML it is. */
    sourceDocumentId: integer().references((): AnyPgColumn => documents.id),
  },
  (t) => [
    // One generated document of each kind per order: enqueuing twice can never make two.
    uniqueIndex('documents_order_kind').on(t.orderId, t.kind).where(sql`${t.kind} in ('ticket', 'invoice', 'confirmation')`),
    uniqueIndex('documents_e_invoice_source').on(t.sourceDocumentId).where(sql`${t.kind} = 'e_invoice'`),
    // An order's documents (migration 0023): the partial unique index above cannot serve order_id = $1.
    index('documents_order').on(t.orderId),
    index('documents_request').on(t.requestId),
    index('documents_account').on(t.accountId),
    index('documents_purge').on(t.availableUntil).where(sql`${t.purgedAt} is null`),
    index('documents_render_pending').on(t.id).where(sql`${t.renderPending}`),
    check('documents_kind', sql`${t.kind} in ('ticket', 'invoice', 'confirmation', 'attachment', 'credit_note', 'e_invoice')`),
    check('documents_status', sql`${t.status} in ('processing', 'available', 'rejected', 'expired')`),
    check('documents_owner', sql`${t.orderId} is not null or ${t.requestId} is not null`),
  ],
);

// The invoice number counter: one row, incremented under its row lock in the transaction that
// numbers an invoice document, so a rolled-back numbering gives its number back (no gaps).
export const invoiceCounter = pgTable(
  'invoice_counter',
  {
    id: smallint().primaryKey().default(1),
    lastNumber: integer().notNull(),
  },
  (t) => [check('invoice_counter_single_row', sql`${t.id} = 1`)],
);

/**
 * Invoices and credit notes as issued (ADR 0019): written once, with the number, in the
 * transaction that takes it from invoice_counter; never updated. `data` is the frozen content
 * (domain/documents/invoiceTypes.ts IssuedInvoice) from which the PDF and the e-invoice are rendered.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial().primaryKey(),
    number: integer().notNull().unique('invoices_number_unique'),
    kind: text().notNull(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    documentId: integer()
      .notNull()
      .unique('invoices_document_unique')
      .references(() => documents.id),
    /** Credit notes: the invoice they correct. */
    invoiceId: integer().references((): AnyPgColumn => invoices.id),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    data: jsonb().notNull(),
  },
  (t) => [
    uniqueIndex('invoices_one_per_order').on(t.orderId).where(sql`${t.kind} = 'invoice'`),
    index('invoices_order').on(t.orderId),
    check('invoices_kind', sql`${t.kind} in ('invoice', 'credit_note')`),
    check('invoices_credit_refers', sql`(${t.kind} = 'credit_note') = (${t.invoiceId} is not null)`),
  ],
);
