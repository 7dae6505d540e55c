// Statements of the entry area besides the scan hot path (entryScan.ts): stored scans as views,
// the scan history, occupancy, the offline manifest, entry rules and people counts.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { entryRules, entryStates, museums, scans, tickets } from '../schema/index.ts';

type Row = Record<string, any>;

export async function findMuseumZone(db: DbOrTx, museumId: number): Promise<{ id: number; zone: string } | null> {
  const [m] = await db.select({ id: museums.id, zone: museums.timeZone }).from(museums).where(eq(museums.id, museumId));
  return m ?? null;
}

/** Museums (all for null) with title and zone, in id order. */
export function museumsForDoor(db: DbOrTx, ids: number[] | null) {
  const q = db.select({ id: museums.id, title: museums.title, zone: museums.timeZone }).from(museums);
  return (ids ? q.where(inArray(museums.id, ids)) : q).orderBy(asc(museums.id));
}

/** Entries used per order item (the sum over its barcodes' entry states). */
export async function entriesUsedOfItems(db: DbOrTx, itemIds: number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ itemId: entryStates.orderItemId, used: sql<string>`sum(${entryStates.entriesUsed})` })
    .from(entryStates)
    .where(inArray(entryStates.orderItemId, itemIds))
    .groupBy(entryStates.orderItemId);
  return new Map(rows.map((r) => [Number(r.itemId), Number(r.used)]));
}

/** The barcode a stored scan was made with. */
export async function scanBarcodeOf(db: DbOrTx, scanId: number): Promise<string | null> {
  const [s] = await db.select({ barcode: scans.barcode }).from(scans).where(eq(scans.id, scanId));
  return s?.barcode ?? null;
}

/** A barcode's scans that passed the fixed refusals (replayed when a late scan arrives). */
export function admittingScansOf(db: DbOrTx, barcodeId: number) {
  return db
    .select({ id: scans.id, direction: scans.direction, scannedAt: scans.scannedAt, peopleCount: scans.peopleCount, result: scans.result })
    .from(scans)
    .where(and(eq(scans.barcodeId, barcodeId), inArray(scans.result, ['valid', 'already_used', 'not_entered'])));
}

const SCAN_VIEW = sql`
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

/** Stored scans by id with their product's title and museum's zone (any order). */
export async function scanViewRows(db: DbOrTx, ids: number[]): Promise<Row[]> {
  const res = await db.execute<Row>(sql`${SCAN_VIEW} where s.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return res.rows;
}

/** Filters of the scan history; every one given must hold. */
export interface ScanFilter {
  museumIds?: number[];
  museumId?: number;
  from?: Date;
  to?: Date;
  barcode?: string;
  deviceId?: number;
  deviceName?: string;
}

function scanWhere(f: ScanFilter): SQL {
  const where: SQL[] = [];
  if (f.museumIds?.length) where.push(sql`s.museum_id = any(${sql.raw(`'{${f.museumIds.map(Number).join(',')}}'::integer[]`)})`);
  if (f.museumId !== undefined) where.push(sql`s.museum_id = ${f.museumId}`);
  if (f.from && f.to) where.push(sql`s.scanned_at >= ${f.from.toISOString()} and s.scanned_at < ${f.to.toISOString()}`);
  if (f.barcode !== undefined) where.push(sql`s.barcode = ${f.barcode}`);
  if (f.deviceId !== undefined) where.push(sql`s.account_id = ${f.deviceId}`);
  if (f.deviceName !== undefined) where.push(sql`a.name = ${f.deviceName}`);
  return where.length ? sql.join(where, sql` and `) : sql`true`;
}

/** A page of the scan history (id order) and the number of scans matching. */
export async function scanHistory(db: DbOrTx, f: ScanFilter, limit: number, offset: number): Promise<{ rows: Row[]; total: number }> {
  const cond = scanWhere(f);
  const count = await db.execute<{ n: string }>(sql`select count(*) as n from scans s join accounts a on a.id = s.account_id where ${cond}`);
  const res = await db.execute<Row>(sql`${SCAN_VIEW} where ${cond} order by s.id limit ${limit} offset ${offset}`);
  return { rows: res.rows, total: Number(count.rows[0]!.n) };
}

/** People inside a museum who entered since `from`. */
export async function peopleInside(db: DbOrTx, museumId: number, from: string): Promise<number> {
  const inside = await db.execute<{ n: string | null }>(sql`
    select sum(inside_people) as n from entry_states
     where museum_id = ${museumId} and inside_people > 0 and last_entry_at >= ${from}`);
  return Number(inside.rows[0]?.n ?? 0);
}

/** Valid entries and exits (people) per museum-local hour in [from, to). */
export async function entriesByHour(db: DbOrTx, museumId: number, zone: string, from: string, to: string) {
  const hours = await db.execute<{ hour: number; entries: string; exits: string }>(sql`
    select extract(hour from scanned_at at time zone ${zone})::int as hour,
           coalesce(sum(people_count) filter (where direction = 'entry'), 0) as entries,
           coalesce(sum(people_count) filter (where direction = 'exit'), 0) as exits
      from scans
     where museum_id = ${museumId} and result = 'valid' and scanned_at >= ${from} and scanned_at < ${to}
     group by 1 order by 1`);
  return hours.rows.map((h) => ({ hour: Number(h.hour), entries: Number(h.entries), exits: Number(h.exits) }));
}

/** Valid barcodes of finalized orders' active items starting in [from, to), with rules and state. */
export async function manifestRows(db: DbOrTx, museumId: number, from: string, to: string, limit: number): Promise<Row[]> {
  const res = await db.execute<Row>(sql`
    select b.code, o.id as order_id, i.type, i.quantity, i.start_at, t.entry_duration, t.last_entry,
           coalesce(ed.duration, tr.duration) as fixed_duration,
           coalesce(i.ticket_id, ed.event_id, i.tour_id) as product_id, coalesce(t.title, e.title, tr.title) as title,
           r.entries_allowed, r.reentry, r.early_minutes, st.entries_used, st.inside_people
      from order_items i
      join orders o on o.id = i.order_id and o.status = 'finalized'
      join barcodes b on b.order_item_id = i.id and b.status = 'valid'
      left join tickets t on t.id = i.ticket_id
      left join event_dates ed on ed.id = i.event_date_id
      left join events e on e.id = ed.event_id
      left join tours tr on tr.id = i.tour_id
      left join entry_rules r on r.ticket_id = i.ticket_id
      left join entry_states st on st.barcode_id = b.id
     where i.museum_id = ${museumId} and i.status = 'active' and i.start_at >= ${from} and i.start_at < ${to}
     order by b.id
     limit ${limit}`);
  return res.rows;
}

export async function findTicketMuseum(db: DbOrTx, ticketId: number): Promise<{ id: number; museumId: number } | null> {
  const [ticket] = await db.select({ id: tickets.id, museumId: tickets.museumId }).from(tickets).where(eq(tickets.id, ticketId));
  return ticket ?? null;
}

export async function upsertEntryRules(db: DbOrTx, ticketId: number, values: { entriesAllowed: number; reentry: boolean; earlyMinutes: number | null; updatedAt: Date }): Promise<void> {
  await db.insert(entryRules).values({ ticketId, ...values }).onConflictDoUpdate({ target: entryRules.ticketId, set: values });
}

/** A stored scan's barcode id and museum. */
export async function findScanOwner(tx: Tx, scanId: number): Promise<{ barcode_id: number | null; museum_id: number | null } | null> {
  const [found] = (await tx.execute<Row>(sql`select barcode_id, museum_id from scans where id = ${scanId}`)).rows;
  return found ? { barcode_id: found.barcode_id === null ? null : Number(found.barcode_id), museum_id: found.museum_id } : null;
}

/** Locks a barcode's entry state; its people inside, or undefined when it has none. */
export async function lockEntryState(tx: Tx, barcodeId: number): Promise<{ inside_people: number } | undefined> {
  const [state] = (await tx.execute<Row>(sql`select inside_people from entry_states where barcode_id = ${barcodeId} for update`)).rows;
  return state ? { inside_people: Number(state.inside_people) } : undefined;
}

/** Locks a scan; its direction, verdict and the item's type and quantity. */
export async function lockScanWithItem(tx: Tx, scanId: number): Promise<Row | undefined> {
  const [s] = (await tx.execute<Row>(sql`
      select s.direction, s.result, i.type, i.quantity
        from scans s left join order_items i on i.id = s.order_item_id
       where s.id = ${scanId} for update of s`)).rows;
  return s;
}

export async function setScanPeopleCount(tx: Tx, scanId: number, people: number): Promise<void> {
  await tx.execute(sql`update scans set people_count = ${people} where id = ${scanId}`);
}

/** Whether a valid entry of the same barcode comes after this scan (scanned_at, then id). */
export async function laterValidEntryExists(tx: Tx, scanId: number): Promise<boolean> {
  const later = await tx.execute(sql`
      select 1 from scans x join scans s on s.id = ${scanId}
       where x.barcode_id = s.barcode_id and x.direction = 'entry' and x.result = 'valid'
         and (x.scanned_at, x.id) > (s.scanned_at, s.id) limit 1`);
  return later.rows.length > 0;
}

/** Bumps a barcode's state version; sets the people inside when `inside` is given. */
export async function bumpEntryState(tx: Tx, barcodeId: number, now: Date, inside: number | null): Promise<void> {
  await tx.execute(sql`
      update entry_states set version = version + 1, updated_at = ${now.toISOString()},
             inside_people = ${inside !== null ? sql`${inside}` : sql`inside_people`}
       where barcode_id = ${barcodeId}`);
}
