// Shared lookups of the entry area: a barcode with everything its rules need (optionally locked),
// the scan view the API answers with, and the museum's display language.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
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

/**
 * Reads a barcode and its order, item, product and rule. With `lock`, the barcode row is locked
 * (FOR NO KEY UPDATE): every scan of one barcode serialises on it, on every node, so two gates
 * cannot both read "unused" and both admit (docs/adr/0017-entry-control.md).
 */
export async function findBarcode(db: DbOrTx, code: string, lock: boolean): Promise<BarcodeFacts | null> {
  const res = await db.execute<Record<string, any>>(sql`
    select b.id as barcode_id, b.status as barcode_status, o.id as order_id, o.status as order_status,
           o.account_id, i.id as item_id, i.status as item_status, i.type, i.museum_id, i.quantity,
           i.start_at, m.time_zone, t.entry_duration, t.last_entry,
           coalesce(ed.duration, tr.duration) as fixed_duration,
           coalesce(i.ticket_id, ed.event_id, i.tour_id) as product_id,
           coalesce(t.title, e.title, tr.title) as title,
           r.entries_allowed, r.reentry, r.early_minutes
      from barcodes b
      join order_items i on i.id = b.order_item_id
      join orders o on o.id = i.order_id
      join museums m on m.id = i.museum_id
      left join tickets t on t.id = i.ticket_id
      left join event_dates ed on ed.id = i.event_date_id
      left join events e on e.id = ed.event_id
      left join tours tr on tr.id = i.tour_id
      left join entry_rules r on r.ticket_id = i.ticket_id
     where b.code = ${code}
     ${lock ? sql`for no key update of b` : sql``}`);
  const r = res.rows[0];
  if (!r) return null;
  const type = r.type as AdmissionItem['type'];
  return {
    barcodeId: Number(r.barcode_id),
    barcodeStatus: r.barcode_status,
    orderId: r.order_id,
    orderStatus: r.order_status,
    orderAccountId: r.account_id,
    itemId: Number(r.item_id),
    itemStatus: r.item_status,
    museumId: r.museum_id,
    covers: type === 'Tour' ? r.quantity : 1,
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
  /** Current verdict differs from what the gate was told (a later-arriving earlier scan). */
  revised: boolean;
}
