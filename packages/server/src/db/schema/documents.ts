// Documents (API.md §10): generated PDFs of orders (ticket, invoice, confirmation) and uploaded
// attachments of orders or requests. The bytes live in PostgreSQL (bytea) so that every node
// behind a load balancer serves them and one backup holds everything.
import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
  },
  (t) => [
    // One generated document of each kind per order: enqueuing twice can never make two.
    uniqueIndex('documents_order_kind').on(t.orderId, t.kind).where(sql`${t.kind} <> 'attachment'`),
    index('documents_request').on(t.requestId),
    index('documents_account').on(t.accountId),
    index('documents_purge').on(t.availableUntil).where(sql`${t.purgedAt} is null`),
    index('documents_render_pending').on(t.id).where(sql`${t.renderPending}`),
    check('documents_kind', sql`${t.kind} in ('ticket', 'invoice', 'confirmation', 'attachment')`),
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
