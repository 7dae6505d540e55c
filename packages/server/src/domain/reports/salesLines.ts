// The sales ledger a report sums, in SQL: every order item an invoice charges counts on the day
// its order was finalized (+1), and when it is cancelled later, again on that day with -1 (its
// credit note). Which items an invoice charges is documents' rule (domain/documents/renderInput.ts,
// invoicedItems: active at finalization); this query selects the same set and a unit test in
// test/domain/reports keeps the two in step. Pending and expired orders never sold anything.
//
// Lines are grouped by (key, price, rate, tax mode, sign) and counted, not summed: VAT is rounded
// per invoice line (domain/pricing/vat.ts, lineAmounts), so equal lines round equally and the
// caller applies that one rule to each distinct line times its count.
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { addDays } from '../time.ts';
import { museumIdsOf, type ReportScope } from './range.ts';

export type SalesDimension = 'day' | 'ticket' | 'channel';

export interface LedgerRow {
  /** day: 'YYYY-MM-DD'; ticket: 'Ticket:12' / 'Event:3' / 'Tour:4'; channel: '<source>:<account id>' */
  key: string;
  price_cents: number;
  vat_pct: number;
  tax_included: boolean;
  sign: 1 | -1;
  lines: number;
  quantity: number;
}

const KEYS: Record<SalesDimension, SQL> = {
  day: sql`to_char((l.at at time zone m.time_zone)::date, 'YYYY-MM-DD')`,
  ticket: sql`l.type || ':' || l.product_id`,
  channel: sql`l.source || ':' || l.account_id`,
};

export async function salesLedger(ctx: Ctx, scope: ReportScope, by: SalesDimension): Promise<LedgerRow[]> {
  // Every zone is within ±14 h of UTC: this coarse instant window lets the indexes on
  // finalized_at/cancelled_at (migration 0020) narrow the scan; the local-date test is exact.
  const lo = `${addDays(scope.from, -1)}T00:00:00Z`;
  const hi = `${addDays(scope.to, 2)}T00:00:00Z`;
  const ids = museumIdsOf(scope);
  const cols = sql`i.museum_id, o.source, o.account_id, i.type,
    coalesce(i.ticket_id, i.tour_id, (select ed.event_id from event_dates ed where ed.id = i.event_date_id)) as product_id,
    i.price_cents, i.vat_pct, i.tax_included, i.quantity`;
  const r = await ctx.db.execute<{ key: string; price_cents: number; vat_pct: number; tax_included: boolean; sign: number; lines: string; quantity: string }>(sql`
    with l as (
      select ${cols}, o.finalized_at as at, 1 as sign
        from orders o join order_items i on i.order_id = o.id
       where o.finalized_at >= ${lo}::timestamptz and o.finalized_at < ${hi}::timestamptz
         and i.museum_id = any(${sql.param(ids)}::int[])
         and (i.status = 'active' or i.cancelled_at > o.finalized_at)
      union all
      select ${cols}, i.cancelled_at as at, -1 as sign
        from order_items i join orders o on o.id = i.order_id
       where i.cancelled_at >= ${lo}::timestamptz and i.cancelled_at < ${hi}::timestamptz
         and i.museum_id = any(${sql.param(ids)}::int[])
         and i.status = 'cancelled' and o.finalized_at is not null and i.cancelled_at > o.finalized_at
    )
    select ${KEYS[by]} as key, l.price_cents, l.vat_pct, l.tax_included, l.sign,
           count(*) as lines, sum(l.quantity) as quantity
      from l join museums m on m.id = l.museum_id
     where (l.at at time zone m.time_zone)::date between ${scope.from}::date and ${scope.to}::date
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
