import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { eventDates, languages, tickets, tours } from './catalog.ts';

export const customers = pgTable(
  'customers',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    foreignId: text(),
    salutation: text(),
    title: text(),
    name: text().notNull(),
    surname: text().notNull(),
    email: text().notNull(),
    phone: text(),
    institution: text(),
    street: text(),
    zip: text(),
    city: text(),
    country: text(),
    locale: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customers_account_foreign_id').on(t.accountId, t.foreignId),
    index('customers_email').on(t.email),
  ],
);

// A hold on capacity for a ticket slot or an event date (spec: reservation). It counts while
// `expiresAt > now` and it is neither released nor consumed by an order.
export const reservations = pgTable(
  'reservations',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    token: text().notNull().unique(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    ticketId: integer().references(() => tickets.id),
    eventDateId: integer().references(() => eventDates.id),
    quantity: integer().notNull(),
    startAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lifetimeEndsAt: timestamp({ withTimezone: true }).notNull(),
    releasedAt: timestamp({ withTimezone: true }),
    consumedAt: timestamp({ withTimezone: true }),
    consumedByOrderId: integer(),
  },
  (t) => [
    check('reservations_target', sql`(${t.ticketId} is null) <> (${t.eventDateId} is null)`),
    check('reservations_quantity', sql`${t.quantity} > 0`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    foreignId: text(),
    token: text().notNull().unique(),
    status: text().notNull(),
    source: text().notNull(),
    customerId: integer().references(() => customers.id),
    comment: text(),
    reference: text(),
    totalPriceCents: integer().notNull(),
    currency: text().notNull(),
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    /** Hash of the normalised create request: a repeat with the same foreign_id must match it. */
    requestHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }),
    finalizedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    /** Box-office sales (migration 0019): cash | card | invoice, and the staff user who sold it. */
    paymentMethod: text(),
    staffUserId: integer(),
    /** OCTO test bookings (`Octo-Env: test`, migration 0038): kept out of the sales reports. */
    testMode: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('orders_account_foreign_id').on(t.accountId, t.foreignId),
    index('orders_account_created').on(t.accountId, t.createdAt),
    index('orders_updated').on(t.updatedAt),
    index('orders_finalized').on(t.finalizedAt).where(sql`${t.finalizedAt} is not null`), // reports (0020)
    index('orders_finalized').on(t.finalizedAt).where(sql`${t.finalizedAt} is not null`), // reports (0020)
    check('orders_status', sql`${t.status} in ('pending', 'finalized', 'cancelled', 'expired')`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    type: text().notNull(),
    museumId: integer().notNull(),
    ticketId: integer().references(() => tickets.id),
    eventDateId: integer().references(() => eventDates.id),
    tourId: integer().references(() => tours.id),
    languageId: integer().references(() => languages.id),
    quantity: integer().notNull(),
    startAt: timestamp({ withTimezone: true }).notNull(),
    unitPriceCents: integer().notNull(),
    priceCents: integer().notNull(),
    vatPct: doublePrecision().notNull(),
    taxIncluded: boolean().notNull(),
    status: text().notNull().default('active'),
    attendees: jsonb().$type<Array<{ name: string; surname: string }>>(),
    cancelledAt: timestamp({ withTimezone: true }),
    /** Voucher lines: the ticket the vouchers admit to (not ticket_id: a voucher sale is no visit). */
    voucherTicketId: integer().references(() => tickets.id),
    /** GiftCard and Voucher lines: the PDF language and recipient asked for (migration 0051). */
    codeLanguage: text(),
    codeRecipient: text(),
  },
  (t) => [
    index('order_items_order').on(t.orderId),
    index('order_items_cancelled').on(t.cancelledAt).where(sql`${t.cancelledAt} is not null`), // reports (0020)
    index('order_items_cancelled').on(t.cancelledAt).where(sql`${t.cancelledAt} is not null`), // reports (0020)
    check('order_items_type', sql`${t.type} in ('Ticket', 'Event', 'Tour', 'GiftCard', 'Voucher')`),
    check('order_items_voucher_ticket', sql`(${t.type} = 'Voucher') = (${t.voucherTicketId} is not null)`),
    check('order_items_status', sql`${t.status} in ('active', 'cancelled')`),
    check('order_items_quantity', sql`${t.quantity} > 0`),
  ],
);

export const barcodes = pgTable(
  'barcodes',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orderItemId: bigint({ mode: 'number' })
      .notNull()
      .references(() => orderItems.id),
    code: text().notNull().unique(),
    status: text().notNull().default('valid'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('barcodes_item').on(t.orderItemId)],
);

// The ledger of used capacity: the one table that availability is computed from.
// resource = 'quota' (resourceId = quota id, slotStart = slot start or local midnight for day
// quotas), 'event_date' (the date id, slotStart = its start) or 'tour' (tour id; slotStart/slotEnd
// span the tour, quantity 1 per booked tour run). A row counts while releasedAt is null and
// expiresAt is null (finalized order) or in the future (hold, pending order).
export const capacityAllocations = pgTable(
  'capacity_allocations',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    resource: text().notNull(),
    resourceId: integer().notNull(),
    slotStart: timestamp({ withTimezone: true }).notNull(),
    slotEnd: timestamp({ withTimezone: true }),
    quantity: integer().notNull(),
    reservationId: bigint({ mode: 'number' }).references(() => reservations.id),
    orderItemId: bigint({ mode: 'number' }).references(() => orderItems.id),
    expiresAt: timestamp({ withTimezone: true }),
    releasedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('capacity_allocations_live')
      .on(t.resource, t.resourceId, t.slotStart)
      .where(sql`${t.releasedAt} is null`),
    // Holds and pending orders only: the part of "used" that capacity_totals does not keep.
    index('capacity_allocations_temporary')
      .on(t.resource, t.resourceId, t.slotStart)
      .where(sql`${t.releasedAt} is null and ${t.expiresAt} is not null`),
    index('capacity_allocations_reservation').on(t.reservationId),
    index('capacity_allocations_order_item').on(t.orderItemId),
    check('capacity_allocations_resource', sql`${t.resource} in ('quota', 'event_date', 'tour')`),
    check('capacity_allocations_quantity', sql`${t.quantity} > 0`),
  ],
);

// The running total of permanent allocations (not released, no expiry) per quota slot and event
// date, kept by triggers on capacity_allocations (src/db/sql/capacity_totals_add.sql), so a claim
// under the slot lock reads one row instead of summing every allocation of the slot. Tours are not
// kept: their check is a peak over overlapping runs (used.ts, peakConcurrency).
export const capacityTotals = pgTable(
  'capacity_totals',
  {
    resource: text().notNull(),
    resourceId: integer().notNull(),
    slotStart: timestamp({ withTimezone: true }).notNull(),
    permanent: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.resource, t.resourceId, t.slotStart] })],
);

// Stored answers for the Idempotency-Key header (spec 7.4), per account, kept 24 hours.
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    key: text().notNull(),
    requestHash: text().notNull(),
    state: text().notNull(),
    statusCode: integer(),
    responseBody: text(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_expires').on(t.expiresAt)],
);
