// The order load of a drill and what must hold afterwards. Each order has its own foreign_id and
// body; every answer per foreign_id is kept, so an order whose request died with the server
// (a network error or a 503) can be retried with the same foreign_id and content, which must
// return the order if it was created (200) or create it once (201), never a second order.
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { call, type Answer, type Catalogue, type Checks } from './lib.ts';

export interface Load {
  /** foreign_id → the order body sent. */
  bodies: Map<string, unknown>;
  /** foreign_id → every answer, oldest first. */
  answers: Map<string, Answer[]>;
  /** Status counts while the load ran (network errors as "network"). */
  statuses: Record<string, number>;
  stop(): Promise<void>;
}

/** `workers` concurrent clients creating finalized orders until stopped or `max` are sent. */
export function startLoad(
  target: { base: string },
  cat: Catalogue,
  opts: { prefix: string; workers: number; max: number; onAnswer?: (a: Answer) => void; /** Every nth order with a new customer (so a mail goes out). */ customerEvery?: number },
): Load {
  const bodies = new Map<string, unknown>();
  const answers = new Map<string, Answer[]>();
  const statuses: Record<string, number> = {};
  let sent = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && sent < opts.max) {
      const i = sent++;
      const foreignId = `${opts.prefix}-${i}`;
      const body = {
        foreign_id: foreignId,
        finalize: true,
        items: [{ type: 'Ticket', attributes: { id: cat.ticketId, quantity: 1 + (i % 2), time: cat.slots[(i * 7) % cat.slots.length] } }],
        ...(opts.customerEvery && i % opts.customerEvery === 0 ? { customer: { name: 'Drill', surname: `Visitor ${i}`, email: `${foreignId}@example.org`, locale: 'de' } } : {}),
      };
      bodies.set(foreignId, body);
      const list: Answer[] = [];
      answers.set(foreignId, list);
      // Like a careful client: an unknown outcome (cut connection, 503) is retried with the same
      // foreign_id and body after a pause, until the answer is definite or the load stops.
      for (;;) {
        const a = await call(target.base, 'POST', '/api/v4/orders', cat.token, body);
        list.push(a);
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        opts.onAnswer?.(a);
        if (a.status !== 'network' && a.status !== 503) break;
        if (stopped) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  const running = Promise.all(Array.from({ length: opts.workers }, worker));
  return {
    bodies,
    answers,
    statuses,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

const final = (load: Load, id: string) => load.answers.get(id)!.at(-1)!;
const settled = (a: Answer) => a.status === 201 || a.status === 200 || (typeof a.status === 'number' && a.status >= 400 && a.status < 500);

/** Retries every order whose outcome is unknown (network error, 5xx) with the same body. */
export async function retryUnsettled(target: { base: string }, cat: Catalogue, load: Load, deadlineMs = 20_000): Promise<number> {
  const end = Date.now() + deadlineMs;
  let retried = 0;
  for (const [id, body] of load.bodies) {
    while (!settled(final(load, id)) && Date.now() < end) {
      retried++;
      const a = await call(target.base, 'POST', '/api/v4/orders', cat.token, body);
      load.answers.get(id)!.push(a);
      if (!settled(a)) await new Promise((r) => setTimeout(r, 200));
    }
  }
  return retried;
}

/** Exactly-once orders and a capacity ledger that matches them. */
export async function verifyOrders(checks: Checks, database: Database, cat: Catalogue, load: Load) {
  const rows = await database.db.execute<{ foreign_id: string; n: number; status: string; qty: number }>(sql`
    select o.foreign_id, count(*) over (partition by o.foreign_id)::int as n, o.status,
           coalesce((select sum(quantity) from order_items i where i.order_id = o.id), 0)::int as qty
    from orders o where o.foreign_id is not null`);
  const byId = new Map(rows.rows.map((r) => [r.foreign_id, r]));
  const created = [...load.answers].filter(([, as]) => as.some((a) => a.status === 201)).map(([id]) => id);
  const missing = created.filter((id) => byId.get(id)?.n !== 1 || byId.get(id)?.status !== 'finalized');
  checks.check('every order answered 201 exists exactly once, finalized', created.length > 0 && missing.length === 0, `${created.length} answered 201${missing.length ? `; missing or doubled: ${missing.slice(0, 5).join(', ')}` : ''}`);

  const unsettled = [...load.bodies.keys()].filter((id) => !settled(final(load, id)));
  checks.check('every order has a definite answer after retries', unsettled.length === 0, unsettled.length ? `unsettled: ${unsettled.slice(0, 5).join(', ')}` : `${load.bodies.size} orders`);

  const refused = [...load.answers].filter(([, as]) => typeof as.at(-1)!.status === 'number' && (as.at(-1)!.status as number) >= 400).map(([id]) => id);
  const ghost = refused.filter((id) => byId.has(id));
  checks.check('an order finally refused (4xx) was not stored', ghost.length === 0, ghost.length ? `stored anyway: ${ghost.slice(0, 5).join(', ')}` : `${refused.length} refused`);

  const dup = rows.rows.filter((r) => r.n > 1);
  const wrongQty = [...byId.values()].filter((r) => {
    const body = load.bodies.get(r.foreign_id) as { items: Array<{ attributes: { quantity: number } }> } | undefined;
    return body && body.items[0]!.attributes.quantity !== r.qty;
  });
  checks.check('no foreign_id is stored twice and quantities are as sent', dup.length === 0 && wrongQty.length === 0, `${rows.rows.length} orders stored`);

  // The ledger: live allocations of finalized orders per slot = the quantities of their items.
  const ledger = await database.db.execute<{ slot: string; used: number; sold: number }>(sql`
    with used as (
      select slot_start as slot, sum(quantity)::int as n from capacity_allocations
      where resource = 'quota' and resource_id = ${cat.quotaId} and released_at is null and order_item_id is not null
      group by slot_start),
    sold as (
      select i.start_at as slot, sum(i.quantity)::int as n from order_items i join orders o on o.id = i.order_id
      where i.ticket_id = ${cat.ticketId} and i.status = 'active' and o.status = 'finalized'
      group by i.start_at)
    select coalesce(u.slot, s.slot)::text as slot, coalesce(u.n, 0) as used, coalesce(s.n, 0) as sold
    from used u full join sold s on u.slot = s.slot`);
  const off = ledger.rows.filter((r) => r.used !== r.sold);
  const over = ledger.rows.filter((r) => r.used > cat.capacity);
  const total = ledger.rows.reduce((a, r) => a + r.sold, 0);
  checks.check('capacity ledger sums equal the stored orders per slot', off.length === 0, off.length ? JSON.stringify(off.slice(0, 3)) : `${total} places over ${ledger.rows.length} slots`);
  checks.check('no slot is sold beyond its capacity', over.length === 0, over.length ? JSON.stringify(over.slice(0, 3)) : `capacity ${cat.capacity} per slot`);
}
