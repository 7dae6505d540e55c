// A console world: museums A and B, each with a slot ticket, a tour and real orders and requests
// made through the API; staff users of every role scoped to museum A, and some scoped to B.
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { StaffRole } from '../../src/domain/staff/permissions.ts';
import { staffUser } from './support.ts';

export interface Museum { id: number; ticketId: number; tourId: number; langId: number }
export interface ConsoleFixture {
  t: TestApp;
  day: string;
  at(min: number): string;
  A: Museum;
  B: Museum;
  user: string;
  reseller: string;
  /** Email of a user per role scoped to museum A (admin: every museum). */
  staff: Record<StaffRole, string>;
  /** Email of a user per role scoped to museum B only. */
  staffB: Record<StaffRole, string>;
  order(m: Museum, o?: { surname?: string; quantity?: number; items?: number; name?: string; email?: string }): Promise<{ id: number; itemIds: number[]; codes: string[] }>;
  request(m: Museum, o?: { notes?: string; surname?: string }): Promise<number>;
}

async function museumWith(t: TestApp): Promise<Museum> {
  const db = t.database.db;
  const id = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId: id, capacity: 50 });
  const ticketId = (await f.ticket(db, { museumId: id, quotaIds: [q.id] })).id;
  const langId = (await f.language(db)).id;
  const tourId = (await f.tour(db, { museumId: id, languageIds: [langId] })).id;
  return { id, ticketId, tourId, langId };
}

export async function consoleFixture(opts: { env?: Record<string, string> } = {}): Promise<ConsoleFixture> {
  // Pictures uploaded through the console need a writable media directory.
  const t = await testApp({ env: { ATRIUM_MEDIA_DIR: path.join(os.tmpdir(), 'atrium-console-media'), ...opts.env } });
  const day = f.localDate(3);
  const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
  const A = await museumWith(t);
  const B = await museumWith(t);
  const user = await t.token({ class: 'user' });
  const reseller = await t.token({ class: 'reseller' });
  const roles: StaffRole[] = ['admin', 'manager', 'box_office', 'viewer'];
  const staff = {} as Record<StaffRole, string>;
  const staffB = {} as Record<StaffRole, string>;
  for (const r of roles) {
    staff[r] = (await staffUser(t, r, r === 'admin' ? [] : [A.id])).email;
    staffB[r] = (await staffUser(t, r, [B.id])).email;
  }
  let n = 0;
  return {
    t, day, at, A, B, user, reseller, staff, staffB,
    async order(m, o = {}) {
      n += 1;
      const items = Array.from({ length: o.items ?? 1 }, (_, i) => ({ type: 'Ticket', attributes: { id: m.ticketId, quantity: o.quantity ?? 2, time: at(600 + 30 * ((n + i) % 12)) } }));
      const res = await t.request({ method: 'POST', url: '/api/v4/orders', token: user, payload: {
        items, finalize: true,
        customer: { name: o.name ?? 'Erika', surname: o.surname ?? `Muster${n}`, email: o.email ?? `visitor${n}@example.org` },
      } });
      assert.equal(res.statusCode, 201, res.body);
      const order = res.json().order;
      const codes = await t.database.db.execute<{ code: string }>(sql`select b.code from barcodes b join order_items i on i.id = b.order_item_id where i.order_id = ${order.id} order by b.id`);
      return { id: order.id, itemIds: order.items.map((i: { id: number }) => i.id), codes: codes.rows.map((r) => r.code) };
    },
    async request(m, o = {}) {
      n += 1;
      const res = await t.request({ method: 'POST', url: '/api/v4/requests', token: reseller, payload: {
        date: day, participants: 10,
        items: [{ tour_id: m.tourId, start_time: at(600 + 60 * (n % 7)), language_id: m.langId }],
        customer: { name: 'Anna', surname: o.surname ?? 'Schule', email: `school${n}@example.org` },
        ...(o.notes ? { notes: o.notes } : {}),
      } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().request.id;
    },
  };
}
