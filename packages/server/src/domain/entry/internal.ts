// Shared lookups of the entry area: a barcode with everything its rules need and its entry state,
// the scan view the API answers with, and the museum's display language.
import type { DbOrTx } from '../../db/client.ts';
import { readScanTargetRow } from '../../db/repositories/entryScan.ts';
import type { Config } from '../../config.ts';
import type { Translated } from '../../db/schema/catalog.ts';
import { DEFAULT_EARLY_MINUTES, DEFAULT_ENTRIES_ALLOWED, type AdmissionItem, type Direction, type EntryRule, type ScanResult } from './rules.ts';

export interface BarcodeFacts {
  barcodeId: number;
  /** 'valid' or 'void' (cancelled item). */
  barcodeStatus: string;
  orderId: number;
  orderStatus: string;
  orderAccountId: number;
  itemId: number;
  itemStatus: string;
  museumId: number;
  /** People one barcode admits: 1 per ticket or seat, the whole group for a tour. */
  covers: number;
  product: { id: number; title: Translated };
  item: AdmissionItem;
  rule: EntryRule;
}

export interface StoredState {
  entriesUsed: number;
  insidePeople: number;
  lastEntryAt: Date | null;
  lastScanAt: Date;
  /** entry_states.version: a scan stores its decision only over this version (src/db/sql/entry_scan_store.sql). */
  version: number;
}

export interface ScanTarget {
  facts: BarcodeFacts | null;
  /** The barcode's entry state, null before its first stateful scan. */
  state: StoredState | null;
  /** The scan already stored under this device's device_scan_id (a replay), if any. */
  seenScanId: number | null;
}

/**
 * Reads a barcode (`code`, already normalised; null: not a barcode at all) with everything its
 * rules need and its entry state, and the scan `deviceScanId` already names for this account.
 * One statement, shared by reads arriving together, that locks nothing: the scan stores its
 * decision only over the state read here (docs/adr/0027-scans-without-a-held-lock.md).
 */
export async function readScanTarget(db: DbOrTx, code: string | null, device: { accountId: number; deviceScanId: string | null } | null = null): Promise<ScanTarget> {
  const r = await readScanTargetRow(db, { code, accountId: device?.accountId ?? null, deviceScanId: device?.deviceScanId ?? null });
  const seenScanId = r.seen_scan_id === null ? null : Number(r.seen_scan_id);
  if (r.barcode_id === null) return { facts: null, state: null, seenScanId };
  const type = r.type as AdmissionItem['type'];
  const facts: BarcodeFacts = {
    barcodeId: Number(r.barcode_id),
    barcodeStatus: r.barcode_status,
    orderId: r.order_id,
    orderStatus: r.order_status,
    orderAccountId: r.account_id,
    itemId: Number(r.item_id),
    itemStatus: r.item_status,
    museumId: r.museum_id,
    covers: coversOf(type, r.quantity),
    product: { id: r.product_id, title: r.title ?? {} },
    item: {
      type,
      startAt: new Date(r.start_at),
      zone: r.time_zone,
      durationMinutes: type === 'Ticket' ? (r.entry_duration ?? null) : r.fixed_duration,
      lastEntry: type === 'Ticket' ? r.last_entry : null,
    },
    rule: {
      entriesAllowed: r.entries_allowed ?? DEFAULT_ENTRIES_ALLOWED,
      reentry: r.reentry ?? false,
      earlyMinutes: r.early_minutes ?? DEFAULT_EARLY_MINUTES,
    },
  };
  const state: StoredState | null =
    r.version === null
      ? null
      : { entriesUsed: r.entries_used, insidePeople: r.inside_people, lastEntryAt: r.last_entry_at ? new Date(r.last_entry_at) : null, lastScanAt: new Date(r.last_scan_at), version: Number(r.version) };
  return { facts, state, seenScanId };
}

/** People one barcode admits: 1 per ticket or seat, the whole group for a tour. */
export function coversOf(type: AdmissionItem['type'], quantity: number): number {
  return type === 'Tour' ? Number(quantity) : 1;
}

/** The display language of the door: the instance's first locale (museums carry none). */
export function doorLocale(config: Pick<Config, 'locales'>): string {
  return config.locales[0] ?? 'en';
}

export function titleIn(title: Translated, locale: string): string {
  return title[locale] ?? Object.values(title)[0] ?? '';
}

export interface ScanView {
  id: number;
  barcode: string;
  direction: Direction;
  result: ScanResult;
  message: string;
  peopleCount: number;
  ticket: { id: number; title: string } | null;
  startAt: Date | null;
  zone: string | null;
  orderId: number | null;
  museumId: number | null;
  entriesUsed: number;
  entriesAllowed: number;
  scannedAt: Date;
  location: string | null;
  device: { id: number; name: string } | null;
  /** already_used: the barcode's last admitted entry; null otherwise and in stored answers. */
  usedAt?: Date | null;
  /** not_yet_valid: when the entry window opens; null otherwise and in stored answers. */
  opensAt?: Date | null;
  /** Current verdict differs from what the gate was told (a later-arriving earlier scan). */
  revised: boolean;
}
