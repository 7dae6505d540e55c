// Entry-control fixtures: two museums, a slot ticket, a day ticket and a tour at museum A, tickets
// sold and finalized, and scanner tokens per museum.
import { randomUUID } from 'node:crypto';
import { asc, inArray, sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { issueBarcodes } from '../../src/domain/orders/barcodes.ts';
import { barcodes, orderItems, orders } from '../../src/db/schema/index.ts';

export interface Item {
  type: 'Ticket' | 'Tour';
  id: number;
  quantity: number;
  startAt: Date;
}

export interface EntryFixture {
  t: TestApp;
  day: string;
  /** Instant of minute `min` after local midnight of `day` (or of `day + offset` days). */
  at(min: number, offsetDays?: number): Date;
  museumA: number;
  museumB: number;
  slotTicket: number;
  dayTicket: number;
  tourId: number;
  langId: number;
  reseller: string;
  user: string;
  gateA: string;
  gateA2: string;
  gateB: string;
  /** Buys and finalizes; returns the order id and its barcodes (in item order). */
  buy(items: Item[]): Promise<{ orderId: number; codes: string[] }>;
  buySlot(quantity?: number, min?: number): Promise<{ orderId: number; codes: string[] }>;
  scan(token: string, body: object): Promise<{ status: number; body: any }>;
}

export async function entryFixture(opts: { testing?: Ctx['testing'] } = {}): Promise<EntryFixture> {
  const t = await testApp(opts.testing ? { testing: opts.testing } : {});
  const db = t.database.db;
  const day = f.localDate(3);
  const at = (min: number, offsetDays = 0) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d + offsetDays)).toISOString().slice(0, 10);
    return zonedInstant(date, min, 'Europe/Berlin');
  };
  const museumA = (await f.museum(db)).id;
  const museumB = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId: museumA, capacity: 1000 });
  const slotTicket = (await f.ticket(db, { museumId: museumA, quotaIds: [q.id] })).id;
  const dq = await f.quota(db, { museumId: museumA, capacity: 1000, kind: 'day' });
  const dayTicket = (await f.ticket(db, { museumId: museumA, ticketType: 'normal', entryDuration: null, quotaIds: [dq.id], title: { de: 'Tageskarte', en: 'Day ticket' } })).id;
  const langId = (await f.language(db)).id;
  const tourId = (await f.tour(db, { museumId: museumA, languageIds: [langId] })).id;
  const user = await t.token({ class: 'user' });
  const gateA = await t.token({ class: 'entry', name: 'Gate A1', museumIds: [museumA] });
  const gateA2 = await t.token({ class: 'entry', name: 'Gate A2', museumIds: [museumA] });
  const gateB = await t.token({ class: 'entry', name: 'Gate B', museumIds: [museumB] });

  // Orders are written directly (finalized, with barcodes from the real issueBarcodes): the scan
  // rules are under test here, not the order flow, which has its own tests.
  const reseller = await t.token({ class: 'reseller' });
  const [acc] = (await db.execute<{ account_id: number }>(sql`select account_id from api_tokens order by id desc limit 1`)).rows;
  const kinds: Record<number, string> = {};
  const buy = async (items: Item[]) => {
    const now = t.clock.now();
    const [o] = await db.insert(orders).values({
      accountId: acc!.account_id, token: `ord_${randomUUID()}`, status: 'finalized', source: 'api', totalPriceCents: 0, currency: 'EUR',
      museumIds: [museumA], requestHash: 'test', createdAt: now, updatedAt: now, finalizedAt: now,
    }).returning();
    const rows = await db.insert(orderItems).values(items.map((i) => ({
      orderId: o!.id, type: i.type, museumId: museumA, ticketId: i.type === 'Ticket' ? i.id : null, tourId: i.type === 'Tour' ? i.id : null,
      languageId: i.type === 'Tour' ? langId : null, quantity: i.quantity, startAt: i.startAt, unitPriceCents: 0, priceCents: 0, vatPct: 0, taxIncluded: true,
    }))).returning();
    await db.transaction((tx) => issueBarcodes(tx, now, rows.map((r) => ({ orderItemId: r.id, count: r.type === 'Tour' ? 1 : r.quantity }))));
    const codes = await db.select({ code: barcodes.code }).from(barcodes).where(inArray(barcodes.orderItemId, rows.map((r) => r.id))).orderBy(asc(barcodes.id));
    return { orderId: o!.id, codes: codes.map((c) => c.code) };
  };
  return {
    t, day, at, museumA, museumB, slotTicket, dayTicket, tourId, langId, reseller, user, gateA, gateA2, gateB, buy,
    buySlot: (quantity = 1, min = 600) => buy([{ type: 'Ticket', id: slotTicket, quantity, startAt: at(min) }]),
    async scan(token, body) {
      const res = await t.request({ method: 'POST', url: '/api/v4/scans', token, payload: { scan: body } });
      return { status: res.statusCode, body: res.json() };
    },
  };
}
