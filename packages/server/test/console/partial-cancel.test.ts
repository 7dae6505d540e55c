// Cancelling some of an item's tickets in the console: the form's first post only shows what goes
// and what would be refunded (nothing changes); the confirmation cancels one of two tickets by
// splitting the item, frees exactly one place, voids one barcode, queues a credit note for the
// part, and refunds its price through the refund verb. A quantity beyond the item's is refused
// with nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { paidOrder } from './payments.ts';
import { csrfOf, signIn, type Browser } from './support.ts';

let fx: ConsoleFixture;
let seller: Browser;
before(async () => {
  fx = await consoleFixture({ env: { ATRIUM_PAYMENT_PROVIDERS: 'desk,invoice' } });
  seller = await signIn(fx.t, fx.staff.manager);
});
after(async () => { await fx.t.close(); });

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await fx.t.database.db.execute<T>(s)).rows;
const items = (orderId: number) => q<{ id: number; quantity: number; status: string; price_cents: number }>(sql`select id::int, quantity, status, price_cents from order_items where order_id = ${orderId} order by id`);
const liveSeats = async (orderId: number) => (await q<{ n: number }>(sql`select coalesce(sum(a.quantity), 0)::int n from capacity_allocations a join order_items i on i.id = a.order_item_id where i.order_id = ${orderId} and a.released_at is null`))[0]!.n;
const totals = async () => (await q<{ n: number }>(sql`select coalesce(sum(permanent), 0)::int n from capacity_totals`))[0]!.n;

describe('partial cancellation', () => {
  test('one of two tickets: confirmation shows the refund, then cancels, frees one place, refunds and credits', async () => {
    const o = await paidOrder(fx);
    const [item] = await items(o.id);
    assert.equal(item!.quantity, 2);
    const unit = item!.price_cents / 2;
    const page = await seller.get(`/console/orders/${o.id}`);
    assert.match(page.body, new RegExp(`name="qty_${item!.id}"`));
    const seatsBefore = await totals();

    const confirm = await seller.post(`/console/orders/${o.id}/cancel`, { [`qty_${item!.id}`]: '1' }, { csrf: csrfOf(page.body) });
    assert.equal(confirm.statusCode, 200, confirm.body.slice(0, 300));
    const refundText = /id="refund-amount">([^<]+)</.exec(confirm.body)?.[1] ?? '';
    assert.match(refundText, new RegExp((unit / 100).toFixed(2).replace('.', '[.,]')));
    assert.match(confirm.body, /name="confirm" value="1"/);
    assert.deepEqual((await items(o.id)).map((i) => i.status), ['active'], 'the confirmation step changed nothing');

    const done = await seller.post(`/console/orders/${o.id}/cancel`, { [`qty_${item!.id}`]: '1', confirm: '1' }, { csrf: csrfOf(confirm.body) });
    assert.equal(done.statusCode, 303, done.body);
    assert.match(done.headers.location as string, /notice=cancelledrefunded/);
    const after = await items(o.id);
    assert.deepEqual(after.map((i) => [i.quantity, i.status, i.price_cents]), [[1, 'active', unit], [1, 'cancelled', unit]]);
    assert.equal(await liveSeats(o.id), 1);
    assert.equal(await totals(), seatsBefore - 1, 'exactly one place freed');
    const codes = await q<{ status: string }>(sql`select b.status from barcodes b join order_items i on i.id = b.order_item_id where i.order_id = ${o.id} order by b.status`);
    assert.deepEqual(codes.map((c) => c.status), ['valid', 'void']);
    const order = (await q<{ status: string; total_price_cents: number }>(sql`select status, total_price_cents from orders where id = ${o.id}`))[0]!;
    assert.deepEqual([order.status, order.total_price_cents], ['finalized', unit]);
    const refunds = await q<{ amount_cents: number; state: string }>(sql`select r.amount_cents, r.state from refunds r join payments p on p.id = r.payment_id where p.order_id = ${o.id}`);
    assert.deepEqual(refunds.map((r) => [r.amount_cents, r.state]), [[unit, 'done']]);
    const credit = await q<{ item_ids: number[] }>(sql`select item_ids from documents where order_id = ${o.id} and kind = 'credit_note'`);
    assert.deepEqual(credit.map((c) => c.item_ids.map(Number)), [[after[1]!.id]]);
  });

  test('more tickets than the item has is refused, nothing changes', async () => {
    const o = await paidOrder(fx);
    const [item] = await items(o.id);
    const res = await seller.post(`/console/orders/${o.id}/cancel`, { [`qty_${item!.id}`]: '3', confirm: '1' });
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.deepEqual((await items(o.id)).map((i) => [i.quantity, i.status]), [[2, 'active']]);
    assert.equal(await liveSeats(o.id), 2);
  });
});
