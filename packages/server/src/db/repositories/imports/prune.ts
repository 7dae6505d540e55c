// Removing keyed catalogue records (`atrium import --prune`, `atrium seed --remove-demo`): what
// still uses a record, and its deletion in a savepoint of its own.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../client.ts';
import { dbError } from '../../errors.ts';

const TABLE: Record<string, string> = {
  event_date: 'event_dates', event: 'events', ticket: 'tickets', tour: 'tours', closure: 'closures',
  opening_season: 'opening_seasons', quota: 'quotas', exhibition: 'exhibitions', museum: 'museums',
};

/** Whether records of `kind` can be removed by key. */
export function removable(kind: string): boolean {
  return TABLE[kind] !== undefined;
}

/** What still points at a record: orders, reservations, tour requests, bookings, tickets. */
export interface Usage {
  orders: number;
  reservations: number;
  requests: number;
  bookings: number;
  tickets: number;
}

async function count(tx: Tx, q: ReturnType<typeof sql>): Promise<number> {
  return Number((await tx.execute<{ n: number }>(q)).rows[0]?.n ?? 0);
}

export async function usageOf(tx: Tx, kind: string, id: number): Promise<Usage> {
  const u: Usage = { orders: 0, reservations: 0, requests: 0, bookings: 0, tickets: 0 };
  const col = kind === 'ticket' ? 'ticket_id' : kind === 'event_date' ? 'event_date_id' : kind === 'tour' ? 'tour_id' : null;
  if (kind === 'event') {
    u.orders += await count(tx, sql`select count(distinct i.order_id)::int as n from order_items i join event_dates d on d.id = i.event_date_id where d.event_id = ${id}`);
  }
  if (col) {
    u.orders += await count(tx, sql`select count(distinct order_id)::int as n from order_items where ${sql.raw(col)} = ${id}`);
    if (kind !== 'tour') u.reservations = await count(tx, sql`select count(*)::int as n from reservations where ${sql.raw(col)} = ${id}`);
    else u.requests = await count(tx, sql`select count(distinct request_id)::int as n from request_items where tour_id = ${id}`);
  }
  if (kind === 'quota') {
    u.bookings = await count(tx, sql`select count(*)::int as n from capacity_allocations where resource = 'quota' and resource_id = ${id}`);
  }
  if (kind === 'exhibition') {
    // Tickets name exhibitions in an array, which no foreign key guards.
    u.tickets = await count(tx, sql`select count(*)::int as n from tickets where ${id} = any(exhibition_ids)`);
  }
  return u;
}

/**
 * Deletes a record (and its capacity totals) in a savepoint, so that a record still referenced
 * fails alone and the rest of the import goes on: `removed` false when it was already gone,
 * `usedBy` the referencing table when a foreign key keeps it.
 */
export async function deleteRecord(tx: Tx, kind: string, id: number): Promise<{ removed: boolean; usedBy?: string }> {
  const table = TABLE[kind]!;
  try {
    // A savepoint on purpose (not transaction(), which would join the import's transaction).
    const gone = await tx.transaction(async (sp) => {
      if (kind === 'quota') await sp.execute(sql`delete from capacity_totals where resource = 'quota' and resource_id = ${id}`);
      if (kind === 'event_date') await sp.execute(sql`delete from capacity_totals where resource = 'event_date' and resource_id = ${id}`);
      return (await sp.execute(sql`delete from ${sql.raw(table)} where id = ${id} returning id`)).rows.length;
    });
    return { removed: gone > 0 };
  } catch (e) {
    const info = dbError(e);
    if (info?.kind !== 'FOREIGN_KEY_VIOLATION') throw e;
    return { removed: false, usedBy: info.table ?? 'other records' };
  }
}
