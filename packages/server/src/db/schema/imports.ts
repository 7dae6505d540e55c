import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
