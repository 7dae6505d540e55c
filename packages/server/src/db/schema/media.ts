// Uploaded pictures of catalogue records (migration 0040, src/domain/media).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { museums } from './catalog.ts';

export const media = pgTable(
  'media',
  {
    id: serial().primaryKey(),
    // Null for pictures the system made (the demo catalogue's); they count against no quota.
    accountId: integer().references(() => accounts.id),
    museumId: integer().notNull().references(() => museums.id),
    targetType: text().notNull(),
    targetId: integer().notNull(),
    title: text(),
    description: text(),
    copyrightInfo: text(),
    contentType: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    byteSize: integer().notNull(),
    sha256: text().notNull(),
    storageKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('media_account').on(t.accountId),
    index('media_target').on(t.targetType, t.targetId),
    check('media_target_type', sql`${t.targetType} in ('museum', 'exhibition', 'ticket', 'event', 'tour')`),
  ],
);
