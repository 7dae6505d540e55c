import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// A partner of the museum (spec 5.3): its class fixes what it may do, `museumIds` narrows the
// scope (empty = every museum), `rights` applies to user accounts ("orders:write", ...).
export const accounts = pgTable(
  'accounts',
  {
    id: serial().primaryKey(),
    class: text().notNull(),
    name: text().notNull(),
    museumIds: integer().array().notNull().default(sql`'{}'::integer[]`),
    rights: text().array().notNull().default(sql`'{}'::text[]`),
    rateLimitPerMinute: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp({ withTimezone: true }),
  },
  (t) => [check('accounts_class', sql`${t.class} in ('public', 'user', 'reseller', 'entry')`)],
);

// Bearer tokens are stored only as a SHA-256 hash (they carry 256 random bits, so a slow hash
// buys nothing); `last4` is what logs and listings may show.
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    tokenHash: text().notNull().unique(),
    last4: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    replacedById: integer(),
  },
  (t) => [index('api_tokens_account').on(t.accountId)],
);
