// Payments and refunds (migration 0034, docs/payments.md): one row per attempt to take money and
// one per refund, each with its own state; amounts in integer cents. An order's payment status is
// derived from them (src/domain/payments/status.ts), never stored.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orders } from './booking.ts';

export const PAYMENT_STATES = ['created', 'pending', 'confirmed', 'failed', 'canceled', 'refunded', 'partially_refunded'] as const;
export const PAYMENT_PROVIDERS = ['demo', 'desk', 'invoice', 'stripe', 'mollie', 'gift_card'] as const;
export const REFUND_STATES = ['pending', 'done', 'failed'] as const;

export const payments = pgTable(
  'payments',
  {
    id: serial().primaryKey(),
    orderId: integer().notNull().references(() => orders.id),
    provider: text().$type<(typeof PAYMENT_PROVIDERS)[number]>().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    state: text().$type<(typeof PAYMENT_STATES)[number]>().notNull(),
    /** The provider's id (Stripe Checkout Session, Mollie payment); unique per provider. */
    providerRef: text(),
    /** cash | card | transfer … as recorded by staff, or the provider's method once known. */
    method: text(),
    /** account:<id> | staff:<id> | system | provider-webhook | return-url. */
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    confirmedAt: timestamp({ withTimezone: true }),
    /** Sum of the refunds reserved or done against it (pending + done); at most amountCents. */
    refundedCents: integer().notNull().default(0),
    /** Why the provider refused it, or why late money was returned. */
    failure: text(),
  },
  (t) => [
    uniqueIndex('payments_provider_ref').on(t.provider, t.providerRef),
    index('payments_order').on(t.orderId),
    index('payments_open').on(t.createdAt).where(sql`${t.state} in ('created', 'pending')`),
    index('payments_confirmed').on(t.confirmedAt).where(sql`${t.confirmedAt} is not null`), // reports (0037)
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    check('payments_refunded_within', sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
  ],
);

export const refunds = pgTable(
  'refunds',
  {
    id: serial().primaryKey(),
    paymentId: integer().notNull().references(() => payments.id),
    amountCents: integer().notNull(),
    state: text().$type<(typeof REFUND_STATES)[number]>().notNull(),
    providerRef: text(),
    reason: text().notNull(),
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    failure: text(),
    /** Calls to the provider so far; part of the idempotency key (refunds.ts). */
    attempts: integer().notNull().default(1),
  },
  (t) => [
    index('refunds_payment').on(t.paymentId),
    index('refunds_done').on(t.updatedAt).where(sql`${t.state} = 'done'`), // reports (0037)
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
