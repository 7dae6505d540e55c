import { date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { quotas } from './catalog.ts';

// The stable keys a catalogue file gives its records (`atrium import`), mapped to the records'
// ids, so importing the same file again updates those records instead of creating copies.
// `kind` is the record kind ('museum', 'ticket', 'event_date', ...). No foreign key: one table
// serves every kind; a mapping whose record was deleted elsewhere is simply re-pointed on the
// next import.
export const catalogKeys = pgTable(
  'catalog_keys',
  {
    kind: text().notNull(),
    key: text().notNull(),
    recordId: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

// What the last import wrote for each per-date override of a quota (migration 0013, ADR 0014):
// the base of the three-way merge that keeps overrides changed through the API.
export const catalogAppliedOverrides = pgTable(
  'catalog_applied_overrides',
  {
    quotaId: integer()
      .notNull()
      .references(() => quotas.id, { onDelete: 'cascade' }),
    date: date({ mode: 'string' }).notNull(),
    capacity: integer(),
  },
  (t) => [primaryKey({ columns: [t.quotaId, t.date] })],
);
