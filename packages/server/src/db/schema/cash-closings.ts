// Cash closings (Kassenabschluss, migration 0042): one record per cashier and business day,
// written once when the cashier closes the day and never changed after (a trigger refuses
// UPDATE, DELETE and TRUNCATE: src/db/sql/cash_closings_immutable.sql). `summary` is the whole
// computed record as printed (sales, refunds and cancellations per method, VAT per rate).
import { sql } from 'drizzle-orm';
import { check, date, integer, jsonb, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { staffUsers } from './staff.ts';

export const cashClosings = pgTable(
  'cash_closings',
  {
    id: serial().primaryKey(),
    staffUserId: integer()
      .notNull()
      .references(() => staffUsers.id),
    businessDate: date({ mode: 'string' }).notNull(),
    openingFloatCents: integer().notNull(),
    expectedCashCents: integer().notNull(),
    countedCashCents: integer().notNull(),
    differenceCents: integer().notNull(),
    summary: jsonb().notNull(),
    closedAt: timestamp({ withTimezone: true }).notNull(),
    closedBy: integer()
      .notNull()
      .references(() => staffUsers.id),
  },
  (t) => [
    uniqueIndex('cash_closings_user_day').on(t.staffUserId, t.businessDate),
    check('cash_closings_amounts', sql`${t.openingFloatCents} >= 0 and ${t.countedCashCents} >= 0 and ${t.differenceCents} = ${t.countedCashCents} - ${t.expectedCashCents}`),
  ],
);
