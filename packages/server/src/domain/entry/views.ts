// Loads stored scans as ScanViews (what the gate was told for replays, the current verdict in
// lists): one query joining the item's product for the ticket title and the museum's zone.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { Ctx } from '../context.ts';
import { doorLocale, titleIn, type ScanView } from './internal.ts';
import type { Direction, ScanResult } from './rules.ts';

const SELECT = sql`
  select s.id, s.barcode, s.direction, s.result, s.gate_result, s.message, s.people_count, s.order_id,
         s.museum_id, s.entries_used, s.entries_allowed, s.scanned_at, s.location, s.revised_at,
         a.id as account_id, a.name as account_name, i.start_at, m.time_zone,
         coalesce(i.ticket_id, ed.event_id, i.tour_id) as product_id,
         coalesce(t.title, e.title, tr.title) as title
    from scans s
    join accounts a on a.id = s.account_id
    left join order_items i on i.id = s.order_item_id
    left join museums m on m.id = s.museum_id
    left join tickets t on t.id = i.ticket_id
    left join event_dates ed on ed.id = i.event_date_id
    left join events e on e.id = ed.event_id
    left join tours tr on tr.id = i.tour_id`;

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
  const res = await db.execute<Record<string, any>>(sql`${SELECT} where s.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  const byId = new Map(res.rows.map((r) => [Number(r.id), toView(r, doorLocale(ctx.config), true)]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

/** Scans matching `where`, with their current verdict (lists and history). */
export async function queryScanViews(db: DbOrTx, ctx: Pick<Ctx, 'config'>, where: SQL, limit: number, offset: number): Promise<ScanView[]> {
  const res = await db.execute<Record<string, any>>(sql`${SELECT} where ${where} order by s.id limit ${limit} offset ${offset}`);
  return res.rows.map((r) => toView(r, doorLocale(ctx.config), false));
}
