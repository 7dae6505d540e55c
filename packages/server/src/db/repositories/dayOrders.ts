// Orders of one museum as the console lists them by visit: the earliest visit of the museum's
// items, the people still booked, the items cancelled, and who booked (customer, reference, and
// the partner when a reseller account placed it). Cancelled orders are included on purpose.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';

export type OrderByVisitRow = {
  id: number;
  status: string;
  start_at: Date;
  people: number;
  cancelled_items: number;
  customer: string | null;
  reference: string | null;
  partner: string | null;
  /** The museum's time zone: visit times are shown in it. */
  zone: string;
};

/** A day sheet lists at most this many orders per museum; a busier day is read in the order list. */
export const ORDERS_PER_DAY = 300;

async function ordersByVisit(db: DbOrTx, museumId: number, where: SQL): Promise<OrderByVisitRow[]> {
  const r = await db.execute<OrderByVisitRow>(sql`
    select o.id, o.status, min(i.start_at) as start_at,
           coalesce(sum(i.quantity) filter (where i.status = 'active'), 0)::int as people,
           (count(*) filter (where i.status <> 'active'))::int as cancelled_items,
           nullif(trim(concat_ws(' ', c.name, c.surname)), '') as customer, o.reference,
           case when a.class = 'reseller' then a.name end as partner, m.time_zone as zone
      from order_items i join orders o on o.id = i.order_id
      join accounts a on a.id = o.account_id left join customers c on c.id = o.customer_id
      join museums m on m.id = i.museum_id
     where i.museum_id = ${museumId} and ${where}
     group by o.id, c.id, a.id, m.id order by min(i.start_at), o.id limit ${ORDERS_PER_DAY}`);
  return r.rows.map((x) => ({ ...x, start_at: new Date(x.start_at) }));
}

/** Finalized and cancelled orders with a visit of the museum in [from, to). */
export function ordersVisitingBetween(db: DbOrTx, museumId: number, from: Date, to: Date): Promise<OrderByVisitRow[]> {
  return ordersByVisit(db, museumId, sql`i.start_at >= ${from} and i.start_at < ${to} and o.status in ('finalized', 'cancelled')`);
}

/** The given orders, by their visits of the museum. */
export function ordersVisitingByIds(db: DbOrTx, museumId: number, orderIds: number[]): Promise<OrderByVisitRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return ordersByVisit(db, museumId, sql`o.id = any(${`{${orderIds.join(',')}}`}::int[])`);
}
