// Promo codes and the uses orders took (migration 0046, docs/vouchers.md). `uses` lives on the
// code row so that taking one is a single conditional update, guarded by a check.
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { orderItems, orders } from './booking.ts';
import { tickets } from './catalog.ts';

export const PROMO_KINDS = ['percent', 'amount', 'free_item', 'buy_x_get_y', 'free_companion'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];

export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial().primaryKey(),
    /** Upper case, as staff chose it (promo codes are meant to be told, not secret). */
    code: text().notNull(),
    kind: text().$type<PromoKind>().notNull(),
    percent: integer(),
    amountCents: integer(),
    capCents: integer(),
    /** buy_x_get_y: X; free_companion: paid admissions per free one. */
    buyQuantity: integer(),
    /** buy_x_get_y: Y (at `percent` off); free_item: how many free. */
    getQuantity: integer(),
    /** free_companion: the companion's ticket (else any ticket the code applies to). */
    companionTicketId: integer().references(() => tickets.id),
    ticketIds: integer().array().notNull().default([]),
    eventIds: integer().array().notNull().default([]),
    tourIds: integer().array().notNull().default([]),
    channels: text().array().notNull().default([]),
    saleFrom: timestamp({ withTimezone: true }),
    saleUntil: timestamp({ withTimezone: true }),
    visitFrom: date({ mode: 'string' }),
    visitUntil: date({ mode: 'string' }),
    minQuantity: integer().notNull().default(1),
    maxUses: integer(),
    maxUsesPerEmail: integer(),
    uses: integer().notNull().default(0),
    partnerAccountId: integer().references(() => accounts.id),
    active: boolean().notNull().default(true),
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('promo_codes_code').on(t.code)],
);

export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    id: serial().primaryKey(),
    promoCodeId: integer().notNull().references(() => promoCodes.id),
    orderId: integer().notNull().references(() => orders.id),
    email: text(),
    discountCents: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('promo_code_uses_order').on(t.promoCodeId, t.orderId), index('promo_code_uses_email').on(t.promoCodeId, t.email)],
);

/** Single-purpose vouchers (migration 0049): one admission of a named ticket, VAT charged at sale. */
export const singlePurposeVouchers = pgTable(
  'single_purpose_vouchers',
  {
    id: serial().primaryKey(),
    codeHash: text().notNull(),
    codeLast4: text().notNull(),
    ticketId: integer().notNull().references(() => tickets.id),
    priceCents: integer().notNull(),
    vatPct: doublePrecision().notNull(),
    currency: text().notNull(),
    language: text().notNull(),
    recipient: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    orderId: integer().references(() => orders.id),
    redeemedAt: timestamp({ withTimezone: true }),
    issuedBy: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    /** The order line that sold it (migration 0051); null for vouchers issued by staff. */
    orderItemId: bigint({ mode: 'number' }).references(() => orderItems.id),
    /** Sold ones only: the code sealed (AES-256-GCM) for the buyer's PDF, read again through the order token. */
    codeSealed: text(),
    /** Cancelled with the order that sold it: no longer redeemable. */
    voidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('single_purpose_vouchers_code_hash').on(t.codeHash), index('single_purpose_vouchers_last4').on(t.codeLast4),
    index('single_purpose_vouchers_order_item').on(t.orderItemId).where(sql`${t.orderItemId} is not null`),
  ],
);

/** What each code took off which order item (a promo code or a single-purpose voucher). */
export const orderDiscounts = pgTable(
  'order_discounts',
  {
    id: serial().primaryKey(),
    orderId: integer().notNull().references(() => orders.id),
    orderItemId: integer().notNull().references(() => orderItems.id),
    promoCodeId: integer().references(() => promoCodes.id),
    voucherId: integer().references(() => singlePurposeVouchers.id),
    amountCents: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('order_discounts_order').on(t.orderId), index('order_discounts_promo').on(t.promoCodeId)],
);
