// Removing catalogue records by key (`atrium import --prune`, `atrium seed --remove-demo`):
// only records that carry a catalogue key (made by an import or the demo), never what was made
// through the API. A record with orders, reservations or requests is kept and reported, because
// orders must keep pointing at what was sold; so is one other records still use.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { catalogKeys } from '../../db/schema/index.ts';
import { record, type Kind, type Summary } from './report.ts';

// Children before parents, so a parent's removal sees its children gone.
const ORDER: Kind[] = ['event_date', 'event', 'ticket', 'tour', 'closure', 'opening_season', 'quota', 'exhibition', 'museum'];
const TABLE: Partial<Record<Kind, string>> = {
  event_date: 'event_dates', event: 'events', ticket: 'tickets', tour: 'tours', closure: 'closures',
  opening_season: 'opening_seasons', quota: 'quotas', exhibition: 'exhibitions', museum: 'museums',
};

export interface Candidate {
  kind: Kind;
  key: string;
  id: number;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

async function count(tx: Tx, q: ReturnType<typeof sql>): Promise<number> {
  return Number((await tx.execute<{ n: number }>(q)).rows[0]?.n ?? 0);
}

/** Why a record must stay (orders, reservations, requests, bookings), or null. */
async function bookings(tx: Tx, kind: Kind, id: number): Promise<string | null> {
  const reasons: string[] = [];
  const col = kind === 'ticket' ? 'ticket_id' : kind === 'event_date' ? 'event_date_id' : kind === 'tour' ? 'tour_id' : null;
  if (kind === 'event') {
    const n = await count(tx, sql`select count(distinct i.order_id)::int as n from order_items i join event_dates d on d.id = i.event_date_id where d.event_id = ${id}`);
    if (n) reasons.push(plural(n, 'order'));
  }
  if (col) {
    const n = await count(tx, sql`select count(distinct order_id)::int as n from order_items where ${sql.raw(col)} = ${id}`);
    if (n) reasons.push(plural(n, 'order'));
    if (kind !== 'tour') {
      const r = await count(tx, sql`select count(*)::int as n from reservations where ${sql.raw(col)} = ${id}`);
      if (r) reasons.push(plural(r, 'reservation'));
    } else {
      const r = await count(tx, sql`select count(distinct request_id)::int as n from request_items where tour_id = ${id}`);
      if (r) reasons.push(plural(r, 'request'));
    }
  }
  if (kind === 'quota') {
    const n = await count(tx, sql`select count(*)::int as n from capacity_allocations where resource = 'quota' and resource_id = ${id}`);
    if (n) reasons.push(plural(n, 'booking'));
  }
  if (kind === 'exhibition') {
    // Tickets name exhibitions in an array, which no foreign key guards.
    const n = await count(tx, sql`select count(*)::int as n from tickets where ${id} = any(exhibition_ids)`);
    if (n) reasons.push(`used by ${plural(n, 'ticket')}`);
  }
  return reasons.length ? `has ${reasons.join(', ')}` : null;
}

/** Removes each candidate it can; reports what it removed and what it kept, with why. */
export async function removeRecords(tx: Tx, candidates: Candidate[], summary: Summary): Promise<void> {
  const sorted = [...candidates].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.key.localeCompare(b.key));
  for (const c of sorted) {
    const table = TABLE[c.kind];
    if (!table) continue;
    const dropKey = () => tx.delete(catalogKeys).where(and(eq(catalogKeys.kind, c.kind), eq(catalogKeys.key, c.key)));
    const why = await bookings(tx, c.kind, c.id);
    if (why) {
      summary.kept.push(`${c.kind} ${c.key} (#${c.id}): ${why}`);
      continue;
    }
    try {
      // A savepoint: a record still referenced fails alone, the rest of the import goes on.
      const gone = await tx.transaction(async (sp) => {
        if (c.kind === 'quota') await sp.execute(sql`delete from capacity_totals where resource = 'quota' and resource_id = ${c.id}`);
        if (c.kind === 'event_date') await sp.execute(sql`delete from capacity_totals where resource = 'event_date' and resource_id = ${c.id}`);
        return (await sp.execute(sql`delete from ${sql.raw(table)} where id = ${c.id} returning id`)).rows.length;
      });
      await dropKey();
      if (gone) record(summary, c.kind, c.key, 'remove');
    } catch (e) {
      const err = e as { code?: string; table?: string; cause?: { code?: string; table?: string } };
      const pg = err.code ? err : err.cause;
      if (pg?.code !== '23503') throw e;
      summary.kept.push(`${c.kind} ${c.key} (#${c.id}): still used by ${pg.table ?? 'other records'}`);
    }
  }
}

/** Keyed records the file does not name (what --prune removes). */
export async function unnamed(tx: Tx, named: Set<string>): Promise<Candidate[]> {
  const rows = await tx.select().from(catalogKeys);
  return rows
    .filter((r) => TABLE[r.kind as Kind] && !named.has(`${r.kind}\u0000${r.key}`))
    .map((r) => ({ kind: r.kind as Kind, key: r.key, id: r.recordId }));
}
