// Group booking requests (docs/api-contract.md §9): an inquiry for one or more tours on a date, decided by
// staff. Accepting turns it into a finalized order (orderId); the request keeps its own record.
import { sql } from 'drizzle-orm';
import { bigserial, check, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { customers, orders } from './booking.ts';
import { languages, tours } from './catalog.ts';

/** A contact person nested in a request (name plus email or phone). */
export interface RequestContact {
  name: string;
  surname: string | null;
  email: string | null;
  phone: string | null;
  role: string | null;
}

export const requests = pgTable(
  'requests',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    foreignId: text(),
    status: text().notNull(),
    date: date({ mode: 'string' }).notNull(),
    participants: integer().notNull(),
    companions: integer().notNull().default(0),
    notes: text(),
    // Null only inside the creating transaction: the row is inserted first so that a concurrent
    // duplicate foreign_id waits on the unique index before doing any work (as orders do).
    customerId: integer().references(() => customers.id),
    contact: jsonb().$type<RequestContact>(),
    /** Museums of the requested tours: the scope in which users see the request. */
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    orderId: integer().references(() => orders.id),
    declineReason: text(),
    /** Hash of the normalised create request: a repeat with the same foreign_id must match it. */
    requestHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    decidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('requests_account_foreign_id').on(t.accountId, t.foreignId),
    index('requests_updated').on(t.updatedAt),
    check('requests_status', sql`${t.status} in ('pending', 'accepted', 'declined', 'withdrawn')`),
    check('requests_participants', sql`${t.participants} > 0`),
    check('requests_companions', sql`${t.companions} >= 0`),
  ],
);

export const requestItems = pgTable(
  'request_items',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    requestId: integer()
      .notNull()
      .references(() => requests.id),
    tourId: integer()
      .notNull()
      .references(() => tours.id),
    languageId: integer()
      .notNull()
      .references(() => languages.id),
    startAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('request_items_request').on(t.requestId)],
);
