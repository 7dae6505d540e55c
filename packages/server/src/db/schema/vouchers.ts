// Gift cards and their ledger (migration 0041, docs/vouchers.md). The card row keeps the balance
// (one conditional update redeems, guarded by a check); the ledger keeps why it changed. The
// code is never stored: its SHA-256 finds the card, its last four characters name it to staff.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orderItems } from './booking.ts';
import { payments, refunds } from './payments.ts';
import { staffUsers } from './staff.ts';

export const LEDGER_KINDS = ['issued', 'redeemed', 'refunded', 'expired', 'corrected', 'voided'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const giftCards = pgTable(
  'gift_cards',
  {
    id: serial().primaryKey(),
    codeHash: text().notNull(),
    codeLast4: text().notNull(),
    /** The code sealed (AES-256-GCM), only to print the card's PDF again; never in an answer. */
    codeSealed: text(),
    currency: text().notNull(),
    initialCents: integer().notNull(),
    balanceCents: integer().notNull(),
    /** de | en: the language of its PDF. */
    language: text().notNull(),
    recipient: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    issuedBy: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    /** The order line that sold the card (migration 0051); null for cards issued by staff. */
    orderItemId: bigint({ mode: 'number' }).references(() => orderItems.id),
    /** Cancelled with its order: the ledger's `voided` entry took the balance to zero. */
    voidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('gift_cards_code_hash').on(t.codeHash),
    index('gift_cards_last4').on(t.codeLast4),
    index('gift_cards_order_item').on(t.orderItemId).where(sql`${t.orderItemId} is not null`),
    check('gift_cards_balance_nonnegative', sql`${t.balanceCents} >= 0`),
    check('gift_cards_initial_positive', sql`${t.initialCents} > 0`),
  ],
);

export const giftCardLedger = pgTable(
  'gift_card_ledger',
  {
    id: serial().primaryKey(),
    giftCardId: integer().notNull().references(() => giftCards.id),
    kind: text().$type<LedgerKind>().notNull(),
    /** Signed: credits positive, debits negative. */
    amountCents: integer().notNull(),
    balanceAfterCents: integer().notNull(),
    paymentId: integer().references(() => payments.id),
    /** A refund credited to the card; unique, so a refund sent twice credits once. */
    refundId: integer().references(() => refunds.id),
    reason: text(),
    actor: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('gift_card_ledger_card').on(t.giftCardId, t.id),
    index('gift_card_ledger_payment').on(t.paymentId).where(sql`${t.paymentId} is not null`),
    uniqueIndex('gift_card_ledger_refund').on(t.refundId).where(sql`${t.refundId} is not null`),
  ],
);

/** Gift cards sold at the box office, for the cashier's cash closing (migration 0048). */
export const deskGiftCardSales = pgTable(
  'desk_gift_card_sales',
  {
    id: serial().primaryKey(),
    giftCardId: integer().notNull().references(() => giftCards.id),
    staffUserId: integer().notNull().references(() => staffUsers.id),
    method: text().$type<'cash' | 'card'>().notNull(),
    amountCents: integer().notNull(),
    /** The sale form's idempotency key: a form sent twice sells one card. */
    saleKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('desk_gift_card_sales_card').on(t.giftCardId),
    uniqueIndex('desk_gift_card_sales_key').on(t.saleKey),
    index('desk_gift_card_sales_staff').on(t.staffUserId, t.createdAt),
    check('desk_gift_card_sales_method', sql`${t.method} in ('cash', 'card')`),
    check('desk_gift_card_sales_amount', sql`${t.amountCents} > 0`),
  ],
);
