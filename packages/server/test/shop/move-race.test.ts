// Visitors move their bookings into the last place of a slot at the same moment: exactly one
// wins and the slot is never oversold. The control run takes the capacity locks away (the
// test-only switch) and shows the same race overselling, so this test would catch a move that
// released and claimed outside the capacity module's locks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { anonymous } from '../../src/domain/principal.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { moveBooking } from '../../src/domain/shop/moveBooking.ts';
import { shopWorld, type ShopWorld } from './manage-support.ts';

const MOVERS = 4;

/** MOVERS orders of one ticket each, in their own slots, all moved at once into `slot` (capacity 1). */
async function round(w: ShopWorld, ctx: Ctx, first: number) {
  const orders = [];
  for (let i = 0; i < MOVERS; i++) orders.push(await w.paidOrder(1, first + 30 * i));
  const items: number[] = [];
  for (const o of orders) items.push((await w.order(o.id)).items[0].id as number);
  const target = w.at(first + 30 * MOVERS);
  // All start before any finishes.
  const results = await Promise.allSettled(orders.map((o, i) => moveBooking(ctx, o.token, { itemId: items[i]!, startAt: target })));
  const [row] = await w.sql<{ n: string }>(sql`
    select coalesce(sum(quantity), 0) as n from capacity_allocations
     where resource = 'quota' and slot_start = ${target.toISOString()}::timestamptz and released_at is null`);
  return {
    won: results.filter((r) => r.status === 'fulfilled').length,
    lost: results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason?.code)),
    placed: Number(row!.n),
  };
}

async function world(testing?: Ctx['testing']) {
  const w = await shopWorld({ capacity: 1, ...(testing ? { testing } : {}) });
  const ctx: Ctx = { db: w.t.database.db, clock: w.t.clock, config: w.t.config, principal: anonymous, ...(testing ? { testing } : {}) };
  return { w, ctx };
}

describe('moving into the last place', () => {
  test('one of several simultaneous moves wins; the others are SLOT_SOLD_OUT and keep their slots', async () => {
    const { w, ctx } = await world();
    try {
      const r = await round(w, ctx, 600);
      assert.equal(r.won, 1);
      assert.deepEqual(r.lost, Array(MOVERS - 1).fill('SLOT_SOLD_OUT'));
      assert.equal(r.placed, 1);
      // The winner's old slot is free again, the losers' still held, the target full.
      const totals = await w.sql<{ permanent: number }>(sql`select permanent from capacity_totals where resource = 'quota' order by slot_start`);
      assert.deepEqual(totals.map((t) => t.permanent).sort(), [0, ...Array(MOVERS).fill(1)]);
    } finally {
      await w.t.close();
    }
  });

  test('control run: without the capacity locks the same race oversells', async () => {
    const { w, ctx } = await world({ disableCapacityLocks: true });
    try {
      let worst = 0;
      for (let rep = 0; rep < 3 && worst <= 1; rep++) worst = Math.max(worst, (await round(w, ctx, 600 + 150 * rep)).placed);
      assert.ok(worst > 1, `expected an oversell without locks, placed at most ${worst} in a slot of 1`);
    } finally {
      await w.t.close();
    }
  });
});
