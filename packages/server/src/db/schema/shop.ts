import { boolean, integer, pgTable } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

// The one account the visitor shop sells through (migration 0039).
export const shopAccount = pgTable('shop_account', {
  singleton: boolean().primaryKey().default(true),
  accountId: integer()
    .notNull()
    .references(() => accounts.id),
});
