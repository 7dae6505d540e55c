// Browsers trusted for a staff account's sign-in (migration 0033, src/domain/staff/devices.ts).
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { staffUsers } from './staff.ts';

export const staffDevices = pgTable(
  'staff_devices',
  {
    /** SHA-256 (hex) of the device cookie; the cookie itself is never stored. */
    idHash: text().notNull(),
    staffUserId: integer()
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.idHash, t.staffUserId] }), index('staff_devices_user').on(t.staffUserId)],
);
