// The report aggregates, in SQL: the sales ledger and the visitors per hour, over museum-local
// days of a range, and the names their rows are labelled with.
import { inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import type { Translated } from '../schema/catalog.ts';
import { accounts, events, museums, tickets, tours } from '../schema/index.ts';

export type SalesDimension = 'day' | 'ticket' | 'channel';

/** The days a report covers ('YYYY-MM-DD', both included) and its museums. */
export interface ReportRange {
  from: string;
  to: string;
  /** Never empty: an impossible id stands for "none" so the statement stays valid. */
  museumIds: number[];
  /** Instants a day before `from` and two after `to`: every zone lies within ±14 h of UTC. */
  lo: string;
  hi: string;
}

export interface LedgerRow {
  /** day: 'YYYY-MM-DD'; ticket: 'Ticket:12' / 'Event:3' / 'Tour:4'; channel: '<desk|octo|source>:<account id>' */
  key: string;
  price_cents: number;
  vat_pct: number;
  tax_included: boolean;
  sign: 1 | -1;
  lines: number;
  quantity: number;
}

export async function museumZones(db: DbOrTx): Promise<Array<{ id: number; zone: string }>> {
  return db.select({ id: museums.id, zone: museums.timeZone }).from(museums);
}

export async function museumTitleRows(db: DbOrTx): Promise<Array<{ id: number; title: Translated }>> {
  return db.select({ id: museums.id, title: museums.title }).from(museums);
}

// The sales ledger: every order item an invoice charges counts on the day its order was
// finalized (+1), and when it is cancelled later, again on that day with -1 (its credit note).
// Which items an invoice charges is documents' rule (domain/documents/renderInput.ts,
// invoicedItems: active at finalization); this query selects the same set and a unit test in
// test/domain/reports keeps the two in step. Pending and expired orders never sold anything.
//
// Lines are grouped by (key, price, rate, tax mode, sign) and counted, not summed: VAT is rounded
// per invoice line (documents/render/vat.ts, lineAmounts), so equal lines round equally and the
// caller applies that one rule to each distinct line times its count. OCTO test bookings
// (orders.test_mode) never count. Gift cards and vouchers sold are lines of their invoices too:
// keyed GiftCard:0 and Voucher:<ticket id> (never a null key).
const KEYS: Record<SalesDimension, SQL> = {
  day: sql`to_char((l.at at time zone m.time_zone)::date, 'YYYY-MM-DD')`,
  ticket: sql`l.type || ':' || l.product_id`,
  channel: sql`l.channel || ':' || l.account_id`,
};

export async function salesLedgerRows(db: DbOrTx, range: ReportRange, by: SalesDimension): Promise<LedgerRow[]> {
  // The coarse instant window lets the indexes on finalized_at/cancelled_at narrow the scan;
  // the local-date test is exact.
  const { lo, hi, museumIds: ids } = range;
  // The channel (domain/reports/channels.ts names it): a staff user's sale is the box office,
  // an order with an OCTO booking came through OCTO; otherwise the order's source.
  const cols = sql`i.museum_id, o.source, o.account_id, i.type,
    case when o.staff_user_id is not null then 'desk'
         when exists (select 1 from octo_bookings ob where ob.order_id = o.id) then 'octo' else o.source end as channel,
    coalesce(i.ticket_id, i.tour_id, (select ed.event_id from event_dates ed where ed.id = i.event_date_id), i.voucher_ticket_id, 0) as product_id,
    i.price_cents, i.vat_pct, i.tax_included, i.quantity`;
  const r = await db.execute<{ key: string; price_cents: number; vat_pct: number; tax_included: boolean; sign: number; lines: string; quantity: string }>(sql`
    with l as (
      select ${cols}, o.finalized_at as at, 1 as sign
        from orders o join order_items i on i.order_id = o.id
       where o.finalized_at >= ${lo}::timestamptz and o.finalized_at < ${hi}::timestamptz and not o.test_mode
         and i.museum_id = any(${sql.param(ids)}::int[])
         and (i.status = 'active' or i.cancelled_at > o.finalized_at)
      union all
      select ${cols}, i.cancelled_at as at, -1 as sign
        from order_items i join orders o on o.id = i.order_id
       where i.cancelled_at >= ${lo}::timestamptz and i.cancelled_at < ${hi}::timestamptz and not o.test_mode
         and i.museum_id = any(${sql.param(ids)}::int[])
         and i.status = 'cancelled' and o.finalized_at is not null and i.cancelled_at > o.finalized_at
    )
    select ${KEYS[by]} as key, l.price_cents, l.vat_pct, l.tax_included, l.sign,
           count(*) as lines, sum(l.quantity) as quantity
      from l join museums m on m.id = l.museum_id
     where (l.at at time zone m.time_zone)::date between ${range.from}::date and ${range.to}::date
     group by 1, 2, 3, 4, 5
     order by 1`);
  return r.rows.map((x) => ({
    key: x.key,
    price_cents: Number(x.price_cents),
    vat_pct: Number(x.vat_pct),
    tax_included: x.tax_included,
    sign: Number(x.sign) < 0 ? -1 : 1,
    lines: Number(x.lines),
    quantity: Number(x.quantity),
  }));
}

export interface VisitorsHourRow {
  date: string;
  hour: number;
  entries: number;
  exits: number;
}

/** People admitted (valid entry scans) and leaving per museum-local day and hour; only hours with scans. */
export async function visitorsPerHour(db: DbOrTx, range: ReportRange): Promise<VisitorsHourRow[]> {
  // The coarse window serves the (museum_id, scanned_at) index.
  const r = await db.execute<{ date: string; hour: number; entries: string; exits: string }>(sql`
    select to_char((s.scanned_at at time zone m.time_zone)::date, 'YYYY-MM-DD') as date,
           extract(hour from s.scanned_at at time zone m.time_zone)::int as hour,
           coalesce(sum(s.people_count) filter (where s.direction = 'entry'), 0) as entries,
           coalesce(sum(s.people_count) filter (where s.direction = 'exit'), 0) as exits
      from scans s join museums m on m.id = s.museum_id
     where s.museum_id = any(${sql.param(range.museumIds)}::int[]) and s.result = 'valid'
       and s.scanned_at >= ${range.lo}::timestamptz and s.scanned_at < ${range.hi}::timestamptz
       and (s.scanned_at at time zone m.time_zone)::date between ${range.from}::date and ${range.to}::date
     group by 1, 2 order by 1, 2`);
  return r.rows.map((x) => ({ date: x.date, hour: Number(x.hour), entries: Number(x.entries), exits: Number(x.exits) }));
}

export type ProductKind = 'Ticket' | 'Event' | 'Tour';
const PRODUCT_TABLES = { Ticket: tickets, Event: events, Tour: tours };

export async function productTitles(db: DbOrTx, kind: ProductKind, ids: number[]): Promise<Array<{ id: number; title: Translated }>> {
  if (ids.length === 0) return [];
  const table = PRODUCT_TABLES[kind];
  return db.select({ id: table.id, title: table.title }).from(table).where(inArray(table.id, ids));
}

export async function accountNames(db: DbOrTx, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, ids));
}
