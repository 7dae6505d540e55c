// Box-office test helpers: a second price category (a reduced ticket in museum A's quota) and a
// sale driven through the real form (GET for the key, POST add, POST sell) over app.inject.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import type { ConsoleFixture } from '../console/fixture.ts';
import type { Browser } from '../console/support.ts';

export async function reducedTicket(fx: ConsoleFixture): Promise<number> {
  const db = fx.t.database.db;
  const q = (await db.execute<{ quota_id: number }>(sql`select quota_id from ticket_quotas where ticket_id = ${fx.A.ticketId}`)).rows[0]!.quota_id;
  return (await f.ticket(db, { museumId: fx.A.id, quotaIds: [q], title: { de: 'Ermäßigt', en: 'Reduced' }, priceCents: 900 })).id;
}

export const keyOf = (html: string) => /name="key" value="([^"]+)"/.exec(html)![1]!;
export const linesOf = (html: string) => [...html.matchAll(/name="line" value="([^"]+)"/g)].map((m) => m[1]!);

/** Adds quantities (input name → quantity) at a slot; answers the re-rendered page. */
export async function add(b: Browser, form: { key: string; date: string; time: string; lines?: string[] }, qty: Record<string, string>, extra: Record<string, string> = {}) {
  return b.post('/console/sale', { key: form.key, date: form.date, time: form.time, line: form.lines ?? [], op: 'add', ...qty, ...extra });
}

export async function count(fx: ConsoleFixture, what: string): Promise<number> {
  return (await fx.t.database.db.execute<{ n: number }>(sql.raw(`select count(*)::int n from ${what}`))).rows[0]!.n;
}

export function orderIdOf(location: unknown): number {
  const m = /done=(\d+)/.exec(String(location));
  assert.ok(m, `no sold order in ${String(location)}`);
  return Number(m[1]);
}
