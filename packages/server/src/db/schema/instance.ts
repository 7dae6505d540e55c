import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

// Exactly one row: the identity of this installation. `instanceId` is the prefix of every
// bearer token this instance issues, so a token of another instance is recognised (spec 5.2).
// `catalogVersion` is bumped by triggers on every catalogue change; caches and ETags key on it.
export const instance = pgTable(
  'instance',
  {
    id: smallint().primaryKey().default(1),
    instanceId: text().notNull(),
    catalogVersion: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('instance_single_row', sql`${t.id} = 1`)],
);
