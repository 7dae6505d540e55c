// Shared setup for the documents and jobs tests: a small catalogue, order helpers, an in-process
// worker and bounded polling (the worker runs for real; tests wait for its effects, never sleep
// blindly).
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import type { Database } from '../../src/db/client.ts';
import { startWorker, type Worker, type WorkerOptions } from '../../src/jobs/worker.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

export interface Catalogue {
  museumId: number;
  otherMuseumId: number;
  ticketId: number;
  dateId: number;
  tourId: number;
  langId: number;
  at(min: number): string;
}

export async function catalogue(db: Db): Promise<Catalogue> {
  const day = f.localDate(5);
  const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
  const museumId = (await f.museum(db)).id;
  const otherMuseumId = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: 500 });
  const ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id] })).id;
  const ev = await f.event(db, { museumId });
  const dateId = (await f.eventDate(db, { eventId: ev.id, startAt: new Date(at(840)), seatsMax: 200 })).id;
  const langId = (await f.language(db)).id;
  const tourId = (await f.tour(db, { museumId, languageIds: [langId], maxConcurrent: 50 })).id;
  return { museumId, otherMuseumId, ticketId, dateId, tourId, langId, at };
}

/** Creates and finalizes an order through the API; returns its JSON. */
export async function finalizedOrder(t: TestApp, token: string, c: Catalogue, items?: object[]) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v4/orders',
    token,
    payload: { finalize: true, items: items ?? [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } }] },
  });
  if (res.statusCode !== 201) throw new Error(`order not created: ${res.statusCode} ${res.body}`);
  return res.json().order as { id: number; token: string; documents: Array<{ id: number; kind: string; status: string; filename: string }> };
}

export function testWorker(t: TestApp, o: Partial<WorkerOptions> & { database?: Database } = {}): Promise<Worker> {
  return startWorker({ database: t.database, config: t.config, clock: t.clock, pollIntervalMs: 200, cron: false, ...o });
}

/** Polls until `check` returns a truthy value; fails after `ms` with the last value seen. */
export async function waitFor<T>(what: string, check: () => Promise<T>, ms = 20_000): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < until) {
    last = await check();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

export async function documentStatus(db: Db, id: number): Promise<string> {
  const r = await db.execute<{ status: string }>(sql`select status from documents where id = ${id}`);
  return r.rows[0]?.status ?? 'missing';
}

/** Jobs still in the queue (waiting, running or failed-and-waiting-for-retry). */
export async function queuedJobs(db: Db): Promise<number> {
  const r = await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker.jobs`);
  return r.rows[0]!.n;
}

export const pngBytes = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a small, clean test image body')]);
