// Loads stored scans as ScanViews (what the gate was told for replays, the current verdict in
// lists): one query joining the item's product for the ticket title and the museum's zone
// (db/repositories/entry.ts).
import type { DbOrTx } from '../../db/client.ts';
import { scanHistory, scanViewRows, type ScanFilter } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { doorLocale, titleIn, type ScanView } from './internal.ts';
import type { Direction, ScanResult } from './rules.ts';

function toView(r: Record<string, any>, locale: string, asTold: boolean): ScanView {
  return {
    id: Number(r.id),
    barcode: r.barcode,
    direction: r.direction as Direction,
    result: (asTold ? r.gate_result : r.result) as ScanResult,
    message: r.message,
    peopleCount: r.people_count,
    ticket: r.product_id ? { id: r.product_id, title: titleIn(r.title ?? {}, locale) } : null,
    startAt: r.start_at ? new Date(r.start_at) : null,
    zone: r.time_zone ?? null,
    orderId: r.order_id,
    museumId: r.museum_id,
    entriesUsed: r.entries_used,
    entriesAllowed: r.entries_allowed,
    scannedAt: new Date(r.scanned_at),
    location: r.location,
    device: { id: r.account_id, name: r.account_name },
    revised: r.result !== r.gate_result,
  };
}

/** Scans by id, in the order asked, as the gate was told (POST answers and their replays). */
export async function loadScanViews(db: DbOrTx, ctx: Pick<Ctx, 'config'>, ids: number[]): Promise<ScanView[]> {
  if (ids.length === 0) return [];
  const rows = await scanViewRows(db, ids);
  const byId = new Map(rows.map((r) => [Number(r.id), toView(r, doorLocale(ctx.config), true)]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

/** A page of the scans matching `filter`, with their current verdict, and how many match. */
export async function queryScanViews(db: DbOrTx, ctx: Pick<Ctx, 'config'>, filter: ScanFilter, limit: number, offset: number): Promise<{ scans: ScanView[]; total: number }> {
  const { rows, total } = await scanHistory(db, filter, limit, offset);
  return { scans: rows.map((r) => toView(r, doorLocale(ctx.config), false)), total };
}
