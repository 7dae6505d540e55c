import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from './booking.ts';

// A visitor's manage-booking link (docs/shop.md). Only the SHA-256 of the token is stored: a
// leaked table gives nobody access. An order may have several (a mail and a confirmation page).
export const orderManageTokens = pgTable(
  'order_manage_tokens',
  {
    tokenHash: text().primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('order_manage_tokens_order').on(t.orderId)],
);

// The shop's settings, one row: a JSON document validated by src/domain/shop/settings.ts.
export const shopSettings = pgTable(
  'shop_settings',
  {
    id: smallint().primaryKey().default(1),
    settings: jsonb().$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [check('shop_settings_single_row', sql`${t.id} = 1`)],
);
