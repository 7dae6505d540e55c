import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { barcodes } from './booking.ts';
import { tickets } from './catalog.ts';

// Entry control (migration 0016, docs/adr/0017-entry-control.md).

/** Per-ticket entry rules; a ticket without a row gets the defaults (1 entry, no re-entry). */
export const entryRules = pgTable(
  'entry_rules',
  {
    ticketId: integer()
      .primaryKey()
      .references(() => tickets.id),
    entriesAllowed: integer().notNull().default(1),
    reentry: boolean().notNull().default(false),
    /** Minutes before the slot the door opens; null = the instance default. */
    earlyMinutes: integer(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    check('entry_rules_entries', sql`${t.entriesAllowed} between 1 and 1000`),
    check('entry_rules_early', sql`${t.earlyMinutes} is null or ${t.earlyMinutes} between 0 and 1440`),
  ],
);

/**
 * Every scan, refused or not. `gate_result`/`message`/`entries_used` are what the gate was told
 * (replayed for a repeated device_scan_id); `result` is the current verdict, which a later-arriving
 * earlier offline scan may revise (`revised_at`).
 */
export const scans = pgTable(
  'scans',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    deviceScanId: text(),
    barcode: text().notNull(),
    barcodeId: bigint({ mode: 'number' }).references(() => barcodes.id),
    museumId: integer(),
    orderId: integer(),
    orderItemId: bigint({ mode: 'number' }),
    direction: text().notNull(),
    location: text(),
    peopleCount: integer().notNull(),
    result: text().notNull(),
    gateResult: text().notNull(),
    message: text().notNull(),
    entriesUsed: integer().notNull(),
    entriesAllowed: integer().notNull(),
    scannedAt: timestamp({ withTimezone: true }).notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    revisedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('scans_device_scan').on(t.accountId, t.deviceScanId).where(sql`${t.deviceScanId} is not null`),
    index('scans_barcode').on(t.barcodeId, t.scannedAt).where(sql`${t.barcodeId} is not null`),
    index('scans_museum_time').on(t.museumId, t.scannedAt),
    index('scans_code').on(t.barcode),
    check('scans_direction', sql`${t.direction} in ('entry', 'exit')`),
    check(
      'scans_result',
      sql`${t.result} in ('valid', 'already_used', 'not_entered', 'not_yet_valid', 'expired', 'cancelled', 'wrong_museum', 'unknown')`,
    ),
    check('scans_people', sql`${t.peopleCount} > 0`),
  ],
);

/** Where a scanned barcode stands: entries used, people inside. Derived from its scans. */
export const entryStates = pgTable(
  'entry_states',
  {
    barcodeId: bigint({ mode: 'number' })
      .primaryKey()
      .references(() => barcodes.id),
    orderItemId: bigint({ mode: 'number' }).notNull(),
    museumId: integer().notNull(),
    entriesUsed: integer().notNull().default(0),
    insidePeople: integer().notNull().default(0),
    lastEntryAt: timestamp({ withTimezone: true }),
    /** The latest scanned_at among the scans that decided this state: an older one means a replay. */
    lastScanAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    /**
     * Bumped by every change: a scan stores its decision only over the version it read
     * (src/db/sql/entry_scan_store.sql).
     */
    version: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('entry_states_item').on(t.orderItemId),
    index('entry_states_inside').on(t.museumId, t.lastEntryAt).where(sql`${t.insidePeople} > 0`),
  ],
);
