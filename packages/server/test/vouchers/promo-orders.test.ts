// Promo codes on POST /orders: the discount is in the item prices and the order total; a refused
// code answers 422 with its reason and writes nothing; a code with one use left taken by two
// orders at once gives exactly one discount (and the control run, with the guard off, shows the
// test would catch a double use).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { paymentsWorld, type PaymentsWorld } from '../payments/support.ts';
import { raceUntilFault } from '../helpers/control.ts';

let w: PaymentsWorld;
let loose: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
  loose = await paymentsWorld({ testing: { unguardedPromoUses: true, disableHoldLimitLock: true, disableCapacityLocks: true } });
});
after(async () => {
  await w.close();
  await loose.close();
});

const n = async (x: PaymentsWorld, table: string) => Number((await x.t.database.db.execute<{ n: string }>(sql`select count(*) n from ${sql.raw(table)}`)).rows[0]!.n);
async function code(x: PaymentsWorld, body: Record<string, unknown>) {
  const r = await x.post('/promo_codes', body);
  assert.equal(r.statusCode, 201, r.body);
  return r.json().promo_code as { id: number; code: string };
}
const order = (x: PaymentsWorld, quantity: number, codes: string[], min = 600) =>
  x.post('/orders', { finalize: false, codes, items: [{ type: 'Ticket', attributes: { id: x.ticketId, quantity, time: x.at(min) } }] });

describe('codes on orders', () => {
  test('percent with a cap and amount off lower the items and the total', async () => {
    await code(w, { code: 'TENPCT', kind: 'percent', percent: 10, cap_cents: 300 });
    const r = await order(w, 3, ['ten-pct']); // 3 x 14.00 = 42.00, 10% = 4.20, capped at 3.00
    assert.equal(r.statusCode, 201, r.body);
    const o = r.json().order;
    assert.deepEqual([o.items[0].price_cents, o.total_price_cents], [3900, 3900]);
    await code(w, { code: 'FIVEOFF', kind: 'amount', amount_cents: 500 });
    const r2 = await order(w, 1, ['fiveoff']);
    assert.equal(r2.statusCode, 201, r2.body);
    const db = w.t.database.db;
    const totals = await db.execute<{ id: number; total_price_cents: number }>(sql`select id, total_price_cents from orders where id in (${o.id}, ${r2.json().order.id}) order by id`);
    assert.deepEqual(totals.rows.map((x) => Number(x.total_price_cents)), [3900, 900]);
    const uses = await db.execute<{ discount_cents: number }>(sql`select discount_cents from promo_code_uses order by id`);
    assert.deepEqual(uses.rows.map((x) => x.discount_cents), [300, 500]);
  });

  test('refused codes answer 422 with their reason and write nothing', async () => {
    await code(w, { code: 'MIN3', kind: 'amount', amount_cents: 100, min_quantity: 3 });
    await code(w, { code: 'DESKONLY', kind: 'amount', amount_cents: 100, channels: ['desk'] });
    await code(w, { code: 'OTHERTICKET', kind: 'amount', amount_cents: 100, ticket_ids: [w.ticketId + 1000] });
    await code(w, { code: 'OLD', kind: 'amount', amount_cents: 100, sale_until: '2020-01-01' });
    const once = await code(w, { code: 'ONCE', kind: 'amount', amount_cents: 100, max_uses: 1 });
    assert.equal((await order(w, 1, ['once'])).statusCode, 201);
    const before = [await n(w, 'orders'), await n(w, 'promo_code_uses'), await n(w, 'order_items')];
    const cases: Array<[string, string]> = [
      ['NOPE', 'CODE_INVALID'], ['MIN3', 'CODE_NOT_APPLICABLE'], ['DESKONLY', 'CODE_NOT_APPLICABLE'],
      ['OTHERTICKET', 'CODE_NOT_APPLICABLE'], ['OLD', 'CODE_EXPIRED'], ['ONCE', 'CODE_EXHAUSTED'],
    ];
    for (const [c, want] of cases) {
      const r = await order(w, 1, [c]);
      assert.equal(r.statusCode, 422, `${c}: ${r.body}`);
      assert.equal(r.json().code, want, c);
    }
    assert.deepEqual([await n(w, 'orders'), await n(w, 'promo_code_uses'), await n(w, 'order_items')], before);
    assert.equal((await w.get(`/promo_codes/${once.id}`)).json().promo_code.uses, 1);
  });
});

async function race(x: PaymentsWorld, name: string) {
  const c = await code(x, { code: name, kind: 'amount', amount_cents: 200, max_uses: 1 });
  const rs = await Promise.all([order(x, 1, [name], 660), order(x, 1, [name], 720)]);
  const uses = Number((await x.t.database.db.execute<{ n: string }>(sql`select count(*) n from promo_code_uses where promo_code_id = ${c.id}`)).rows[0]!.n);
  return { ok: rs.filter((r) => r.statusCode === 201).length, codes: rs.map((r) => r.statusCode === 201 ? 'ok' : r.json().code), uses };
}

describe('the last use under concurrency', () => {
  test('two orders for one last use: exactly one discount', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await race(w, `RACE${i}`);
      assert.equal(r.ok, 1, JSON.stringify(r));
      assert.equal(r.uses, 1);
      assert.deepEqual(r.codes.sort(), ['CODE_EXHAUSTED', 'ok']);
    }
  });

  test('one single-purpose voucher in two orders at once: redeemed once', async () => {
    const v = (await w.post('/vouchers', { ticket_id: w.ticketId })).json().voucher as { id: number; code: string };
    const rs = await Promise.all([order(w, 1, [v.code], 900), order(w, 1, [v.code], 930)]);
    assert.deepEqual(rs.map((r) => (r.statusCode === 201 ? 'ok' : r.json().code)).sort(), ['CODE_EXHAUSTED', 'ok']);
    const n = await w.t.database.db.execute<{ n: string }>(sql`select count(*) n from order_discounts where voucher_id = ${v.id}`);
    assert.equal(Number(n.rows[0]!.n), 1);
  });

  test('control: without the guard both orders get the discount (the test above would catch it)', async () => {
    // The other locks of an order are off too, so nothing but the guard could keep them apart.
    // Up to six races, each with a code of its own (test/helpers/control.ts).
    const tries = await raceUntilFault([0, 1, 2, 3, 4, 5], (i) => race(loose, `LOOSE${i}`), (r) => r.ok === 2);
    const r = tries.at(-1)!;
    assert.equal(r.ok, 2, JSON.stringify(tries));
    assert.equal(r.uses, 2);
  });
});
