// Promo codes and the uses orders took (migration 0046, docs/vouchers.md). `uses` lives on the
// code row so that taking one is a single conditional update, guarded by a check.
import { boolean, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { orders } from './booking.ts';

export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial().primaryKey(),
    /** Upper case, as staff chose it (promo codes are meant to be told, not secret). */
    code: text().notNull(),
    kind: text().$type<'percent' | 'amount'>().notNull(),
    percent: integer(),
    amountCents: integer(),
    capCents: integer(),
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
