// OCTO bookings (migration 0038, docs/octo.md): the OCTO side of an order a distribution platform
// made. The order holds capacity, money and tickets; this row keeps what only OCTO speaks of.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { orders } from './booking.ts';

export interface OctoUnitItemRecord {
  uuid: string;
  unitId: string;
  resellerReference: string | null;
}
export interface OctoCancellationRecord {
  refund: 'FULL' | 'PARTIAL' | 'NONE';
  reason: string | null;
  utcCancelledAt: string;
}

export const octoBookings = pgTable(
  'octo_bookings',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    uuid: text().notNull(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    productId: text().notNull(),
    optionId: text().notNull(),
    availabilityId: text().notNull(),
    unitItems: jsonb().$type<OctoUnitItemRecord[]>().notNull(),
    contact: jsonb().$type<Record<string, unknown>>().notNull(),
    notes: text(),
    resellerReference: text(),
    testMode: boolean().notNull().default(false),
    cancellation: jsonb().$type<OctoCancellationRecord>(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.uuid] }),
    uniqueIndex('octo_bookings_order').on(t.orderId),
    index('octo_bookings_reseller_reference').on(t.accountId, t.resellerReference),
  ],
);
