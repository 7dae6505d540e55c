// GDPR erasures (ADR 0015, migration 0014): a record that a customer was anonymised, when and by
// which account, and how many records were touched. It holds no personal data itself.
import { integer, jsonb, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from './booking.ts';

export const customerErasures = pgTable(
  'customer_erasures',
  {
    id: serial().primaryKey(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    /** 0 for the command line (system context). No foreign key: the system has no account row. */
    erasedByAccountId: integer().notNull(),
    erasedAt: timestamp({ withTimezone: true }).notNull(),
    summary: jsonb().$type<Record<string, number>>().notNull(),
  },
  (t) => [uniqueIndex('customer_erasures_customer').on(t.customerId)],
);
