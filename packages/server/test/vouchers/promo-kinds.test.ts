// The promo kinds and single-purpose vouchers applied through `codes`: on orders (item prices, the
// total and the order's `discounts`), on reservations (the same checks and error codes, an
// answer with the effect, no use taken), and vouchers refused for other tickets, twice or unknown.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { paymentsWorld, type PaymentsWorld } from '../payments/support.ts';
import { serializeOrder } from '../../src/domain/orders/json.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { invoiceLine, loadOrderRenderData } from '../../src/domain/documents/renderInput.ts';
import { orderViewFromSnapshot } from '../../src/domain/orders/snapshot.ts';

let w: PaymentsWorld;
let companionId: number;
before(async () => {
  w = await paymentsWorld();
  const q = await f.quota(w.t.database.db, { museumId: w.museumId, capacity: 50 });
  companionId = (await f.ticket(w.t.database.db, { museumId: w.museumId, quotaIds: [q.id], priceCents: 800 })).id;
});
after(() => w.close());

const n = async (table: string) => Number((await w.t.database.db.execute<{ n: string }>(sql`select count(*) n from ${sql.raw(table)}`)).rows[0]!.n);
async function code(body: Record<string, unknown>) {
  const r = await w.post('/promo_codes', body);
  assert.equal(r.statusCode, 201, r.body);
}
const line = (id: number, quantity: number, min = 600) => ({ type: 'Ticket', attributes: { id, quantity, time: w.at(min) } });
const order = (codes: string[], items: unknown[], customer?: object) => w.post('/orders', { finalize: false, codes, items, ...(customer ? { customer } : {}) });

describe('promo kinds on orders', () => {
  test('buy X get Y, second at half price, free item, free companion', async () => {
    await code({ code: 'ONEPLUSONE', kind: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1 });
    await code({ code: 'HALFSECOND', kind: 'buy_x_get_y', buy_quantity: 1, get_quantity: 1, percent: 50 });
    await code({ code: 'TWOPLUSONE', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1 });
    await code({ code: 'FREEBIE', kind: 'free_item', ticket_ids: [companionId] });
    await code({ code: 'BRINGONE', kind: 'free_companion', buy_quantity: 2, ticket_ids: [w.ticketId], companion_ticket_id: companionId });
    const cases: Array<[string, unknown[], number]> = [
      ['ONEPLUSONE', [line(w.ticketId, 3)], 2800], // 3 x 14.00: one pair, the third paid
      ['HALFSECOND', [line(w.ticketId, 2)], 2100],
      ['TWOPLUSONE', [line(w.ticketId, 3)], 2800],
      ['FREEBIE', [line(w.ticketId, 1), line(companionId, 2)], 1400 + 800],
      ['BRINGONE', [line(w.ticketId, 4), line(companionId, 3)], 5600 + 800], // 4 paid: two companions free
    ];
    for (const [c, items, total] of cases) {
      const r = await order([c], items);
      assert.equal(r.statusCode, 201, `${c}: ${r.body}`);
      const o = r.json().order;
      assert.equal(o.total_price_cents, total, c);
      const off = o.discounts.reduce((s: number, d: { amount_cents: number }) => s + d.amount_cents, 0);
      const list = o.items.reduce((s: number, i: { unit_price_cents: number; quantity: number }) => s + i.unit_price_cents * i.quantity, 0);
      assert.equal(list - off, total, `${c}: discounts add up`);
      assert.ok(o.discounts.every((d: { code: string; item_id: number }) => d.code === c && o.items.some((i: { id: number }) => i.id === d.item_id)));
      // The order read back shows the same discounts.
      assert.deepEqual((await w.get(`/orders/${o.id}`)).json().order.discounts, o.discounts);
    }
    // The invoice line of a discounted item: charged 28.00, and what 1+1 took off (list 42.00).
    const first = (await w.get('/orders?per_page=100')).json().orders.find((o: { discounts: Array<{ code: string }> }) => o.discounts.some((d) => d.code === 'ONEPLUSONE'));
    const d = (await loadOrderRenderData(w.t.database.db, systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config }), first.id))!;
    const l = invoiceLine(d, d.items[0]!);
    assert.deepEqual([l.total_cents, l.discounts], [2800, [{ code: 'ONEPLUSONE', amount_cents: 1400 }]]);
    const two = await order(['TWOPLUSONE'], [line(w.ticketId, 2)]);
    assert.equal(two.json().code, 'CODE_NOT_APPLICABLE', 'two admissions do not make 2+1');
  });

  test('uses per e-mail count across orders', async () => {
    await code({ code: 'ONCEEACH', kind: 'amount', amount_cents: 100, max_uses_per_email: 1 });
    const c = { name: 'Ada', surname: 'L', email: 'ada@example.org' };
    assert.equal((await order(['ONCEEACH'], [line(w.ticketId, 1)], c)).statusCode, 201);
    assert.equal((await order(['ONCEEACH'], [line(w.ticketId, 1)], c)).json().code, 'CODE_EXHAUSTED');
    assert.equal((await order(['ONCEEACH'], [line(w.ticketId, 1)])).json().code, 'CODE_NOT_APPLICABLE');
  });
});

describe('single-purpose vouchers', () => {
  test('issued for a ticket, redeemed once for it at no charge, refused elsewhere', async () => {
    const r = await w.post('/vouchers', { ticket_id: w.ticketId, language: 'en' });
    assert.equal(r.statusCode, 201, r.body);
    const v = r.json().voucher;
    assert.deepEqual([v.price_cents, v.vat_pct, v.status, v.code.length], [1400, 7, 'valid', 20]);
    const got = (await w.get(`/vouchers/${v.id}`)).json().voucher;
    assert.equal(got.code, undefined, 'the code is shown once');
    assert.equal((await w.get(`/vouchers?last4=${v.code_last4}`)).json().vouchers[0].id, v.id);

    const before = [await n('orders'), await n('order_discounts')];
    const wrong = await order([v.code], [line(companionId, 1)]);
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json().code, 'VOUCHER_WRONG_TICKET');
    assert.ok(!wrong.body.includes(v.code), 'no code in errors');
    assert.equal((await order(['ABCD-EFGH-JKMN-PQRS-TVWX'], [line(w.ticketId, 1)])).json().code, 'CODE_INVALID');
    assert.deepEqual([await n('orders'), await n('order_discounts')], before);

    const ok = await order([v.code.toLowerCase()], [line(w.ticketId, 2, 780)]);
    assert.equal(ok.statusCode, 201, ok.body);
    const o = ok.json().order;
    assert.equal(o.total_price_cents, 1400, 'one of two admissions free');
    assert.deepEqual(o.discounts.map((d: { code: string; amount_cents: number }) => [d.code, d.amount_cents]), [[`…${v.code_last4}`, 1400]]);
    assert.equal((await w.get(`/vouchers/${v.id}`)).json().voucher.status, 'redeemed');
    // Events carry the same discounts as GET /orders/:id (the snapshot's SQL and the loaders agree).
    const snap = (await w.t.database.db.execute<{ s: unknown }>(sql`select order_snapshot(${o.id}) s`)).rows[0]!.s;
    assert.deepEqual(serializeOrder(orderViewFromSnapshot(snap, new Date()), w.t.config.zone).discounts, (await w.get(`/orders/${o.id}`)).json().order.discounts);
    assert.equal((await order([v.code], [line(w.ticketId, 1, 810)])).json().code, 'CODE_EXHAUSTED');
    assert.equal((await w.post('/vouchers', { ticket_id: 999999 })).statusCode, 422);
  });
});

describe('codes on reservations', () => {
  test('the same checks and error codes, the effect in the answer, no use taken', async () => {
    await code({ code: 'HOLDTEN', kind: 'percent', percent: 10, max_uses: 1 });
    const r = await w.post('/reservations', { ticket_id: w.ticketId, quantity: 2, start_at: w.at(840), codes: ['holdten'] });
    assert.equal(r.statusCode, 201, r.body);
    assert.deepEqual([r.json().reservation.price_cents, r.json().reservation.discounts], [2520, [{ code: 'HOLDTEN', amount_cents: 280 }]]);
    const held = await n('reservations');
    for (const [c, want] of [['NOPE', 'CODE_INVALID'], ['TWOPLUSONE', 'CODE_NOT_APPLICABLE']] as const) {
      const bad = await w.post('/reservations', { ticket_id: w.ticketId, quantity: 1, start_at: w.at(840), codes: [c] });
      assert.equal(bad.statusCode, 422, bad.body);
      assert.equal(bad.json().code, want);
    }
    assert.equal(await n('reservations'), held, 'a refused code holds nothing');
    const uses = (await w.t.database.db.execute<{ uses: number }>(sql`select uses from promo_codes where code = 'HOLDTEN'`)).rows[0]!.uses;
    assert.equal(uses, 0);
  });
});

describe('code-usage reports', () => {
  test('per code its orders and discount total; per discount its order and item; CSV too', async () => {
    const reports = await w.t.token({ class: 'user', rights: ['reports:read'] });
    const day = f.localDate(0);
    const r = await w.get(`/reports/codes/usage?from=${day}&to=${day}`, reports);
    assert.equal(r.statusCode, 200, r.body);
    const one = r.json().codes.find((c: { code: string }) => c.code === 'ONEPLUSONE');
    assert.deepEqual([one.kind, one.orders, one.discount_cents, one.uses_total], ['buy_x_get_y', 1, 1400, 1]);
    const csv = await w.get(`/reports/codes/usage?from=${day}&to=${day}&format=csv`, reports);
    assert.match(csv.headers['content-type'] as string, /text\/csv/);
    assert.ok(csv.body.split('\n')[0]!.includes('discount'), csv.body);
    assert.ok(csv.body.includes('ONEPLUSONE'), csv.body);
    const d = await w.get(`/reports/codes/discounts?from=${day}&to=${day}`, reports);
    assert.equal(d.statusCode, 200, d.body);
    assert.ok(d.json().discounts.some((x: { code: string; amount_cents: number }) => x.code.startsWith('…') && x.amount_cents === 1400), 'the voucher, by its last four');
    assert.equal((await w.get(`/reports/codes/usage?from=${day}&to=2000-01-01`, reports)).statusCode, 422);
    assert.equal((await w.get(`/reports/codes/usage?from=${day}&to=${day}`)).statusCode, 403);
  });
});
