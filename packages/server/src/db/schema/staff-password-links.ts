// Set-password links of staff users (migration 0050, src/domain/staff/passwordLinks.ts).
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { staffUsers } from './staff.ts';

export const staffPasswordLinks = pgTable(
  'staff_password_links',
  {
    /** SHA-256 (hex) of the link's token; the token itself is never stored. */
    tokenHash: text().primaryKey(),
    staffUserId: integer()
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('staff_password_links_user').on(t.staffUserId)],
);
