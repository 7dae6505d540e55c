// The manage-booking pages end to end (app.inject): the order through its link, guessed and
// altered links, cancelling with a refund (refund record, credit note, places freed), the rule
// refusing, moving to another slot (old barcode refused at the door, new one admitted).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import * as f from '../helpers/factories.ts';
import { issueManageLink } from '../../src/domain/shop/manageLink.ts';
import { shopWorld, type ShopWorld } from './manage-support.ts';

let w: ShopWorld;
before(async () => {
  w = await shopWorld();
});
after(() => w.t.close());

const liveAllocations = async (orderId: number) =>
  Number((await w.sql<{ n: string }>(sql`select coalesce(sum(a.quantity), 0) as n from capacity_allocations a join order_items i on i.id = a.order_item_id where i.order_id = ${orderId} and a.released_at is null`))[0]!.n);

describe('manage link', () => {
  test('shows the order, its items, documents and payments', async () => {
    const o = await w.paidOrder(2);
    const res = await w.page(`/shop/manage/${o.token}`);
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, new RegExp(`Your booking ${o.id}`));
    assert.match(res.body, /Admission regular/);
    assert.match(res.body, /Cancel or move until/);
    assert.match(res.body, /28\.00/);
    assert.match(String((await w.t.app.inject({ url: `/shop/manage/${o.token}` })).headers['content-security-policy']), /frame-ancestors 'self'/);
  });

  test('a guessed or altered token is the same 404 page', async () => {
    const o = await w.paidOrder(1);
    const last = o.token.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [`${o.token.slice(0, -1)}${last}`, 'mb_' + 'x'.repeat(43), 'nonsense', String(o.id)]) {
      const res = await w.page(`/shop/manage/${bad}`);
      assert.equal(res.status, 404, bad);
      assert.match(res.body, /not found/);
      assert.doesNotMatch(res.body, new RegExp(`booking ${o.id}`));
    }
  });
});

describe('cancel', () => {
  test('the confirmation shows the refund; cancelling refunds, issues a credit note and frees the places', async () => {
    const o = await w.paidOrder(2);
    assert.equal(await liveAllocations(o.id), 2);
    const confirm = await w.page(`/shop/manage/${o.token}/cancel`);
    assert.equal(confirm.status, 200, confirm.body);
    assert.match(confirm.body, /€28\.00 will be refunded/);
    const done = await w.postForm(`/shop/manage/${o.token}/cancel`, {});
    assert.equal(done.status, 303, done.body);
    assert.equal(done.location, `/shop/manage/${o.token}?notice=cancelled&refunded=2800`);
    const order = await w.order(o.id);
    assert.equal(order.status, 'cancelled');
    const money = await w.payments(o.id);
    assert.deepEqual(money.refunds.map((r: { amount_cents: number; state: string }) => [r.amount_cents, r.state]), [[2800, 'done']]);
    assert.equal(money.payment_status, 'refunded');
    const notes = await w.sql<{ kind: string }>(sql`select kind from documents where order_id = ${o.id} and kind = 'credit_note'`);
    assert.equal(notes.length, 1);
    assert.equal(await liveAllocations(o.id), 0);
    const audit = await w.sql<{ actor: string }>(sql`select actor from audit_log where action = 'order.cancel' and entity_id = ${String(o.id)}`);
    assert.deepEqual(audit.map((a) => a.actor), ['shop-visitor']);
    // Repeating the POST changes nothing and refunds nothing more.
    const again = await w.postForm(`/shop/manage/${o.token}/cancel`, {});
    assert.equal(again.status, 422);
    assert.equal((await w.payments(o.id)).refunds.length, 1);
  });

  test('a form without the CSRF cookie is refused', async () => {
    const o = await w.paidOrder(1);
    const res = await w.t.app.inject({ method: 'POST', url: `/shop/manage/${o.token}/cancel`, payload: '_csrf=forged', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.statusCode, 403);
    assert.equal((await w.order(o.id)).status, 'finalized');
  });

  test("a ticket whose rule says never, or more hours than are left, cannot be cancelled", async () => {
    for (const rule of ['never', '120h']) {
      const db = w.t.database.db;
      await db.execute(sql`update tickets set cancellation_rule = ${rule} where id = ${w.ticketId}`);
      try {
        const o = await w.paidOrder(1);
        const page = await w.page(`/shop/manage/${o.token}`);
        assert.doesNotMatch(page.body, /href="[^"]*\/cancel/);
        assert.equal((await w.page(`/shop/manage/${o.token}/cancel`)).status, 422);
        const res = await w.postForm(`/shop/manage/${o.token}/cancel`, {});
        assert.equal(res.status, 422, rule);
        assert.match(res.body, /can no longer be cancelled/);
        assert.equal((await w.order(o.id)).status, 'finalized');
        assert.equal((await w.payments(o.id)).refunds.length, 0);
      } finally {
        await db.execute(sql`update tickets set cancellation_rule = null where id = ${w.ticketId}`);
      }
    }
  });
});

describe('move', () => {
  test('to another free slot: new barcodes admitted there, the old ones refused', async () => {
    const o = await w.paidOrder(1, 600);
    const before = (await w.order(o.id)).items[0];
    const oldCode: string = before.attributes.barcodes[0].barcode;
    const slots = await w.page(`/shop/manage/${o.token}/move/${before.id}?date=${w.day}`);
    assert.equal(slots.status, 200, slots.body);
    const eleven = w.at(660).toISOString();
    assert.match(slots.body, new RegExp(`value="${eleven}"`));
    assert.doesNotMatch(slots.body, new RegExp(`value="${w.at(600).toISOString()}"`), 'the booked slot is not offered');
    const res = await w.postForm(`/shop/manage/${o.token}/move/${before.id}`, { start: eleven });
    assert.equal(res.status, 303, res.body);
    const moved = (await w.order(o.id)).items[0];
    assert.equal(new Date(moved.attributes.start_time).toISOString(), eleven);
    const valid = moved.attributes.barcodes.filter((b: { status: string }) => b.status === 'valid');
    assert.equal(valid.length, 1);
    const newCode: string = valid[0].barcode;
    assert.notEqual(newCode, oldCode);
    assert.equal(moved.price_cents, before.price_cents);
    const now = w.t.clock.now();
    w.t.clock.set(new Date(w.at(660).getTime() - 5 * 60_000));
    try {
      assert.equal(await w.scan(oldCode), 'cancelled');
      assert.equal(await w.scan(newCode), 'valid');
    } finally {
      w.t.clock.set(now);
    }
    const audit = await w.sql<{ actor: string }>(sql`select actor from audit_log where action = 'order.move' and entity_id = ${String(o.id)}`);
    assert.equal(audit.length, 1);
    const events = await w.sql<{ data: { moved_item_ids: number[]; previous_start_at: string } }>(sql`select data from outbox_events where type = 'order.rebooked' and subject_id = ${o.id}`);
    assert.deepEqual(events.map((e) => [e.data.moved_item_ids, new Date(e.data.previous_start_at).toISOString()]), [[[before.id], w.at(600).toISOString()]]);
  });
});

describe('move events and tours', () => {
  test('an event seat to another date of the event, a tour to another start: seats moved once, new barcodes, same price', async () => {
    const db = w.t.database.db;
    const lang = await f.language(db, { code: 'fr', name: 'Français' });
    const ev = await f.event(db, { museumId: w.museumId, priceCents: 700 });
    const first = await f.eventDate(db, { eventId: ev.id, startAt: w.at(15 * 60), seatsMax: 5, languageId: lang.id });
    const second = await f.eventDate(db, { eventId: ev.id, startAt: w.at(17 * 60), seatsMax: 5, languageId: lang.id });
    const tour = await f.tour(db, { museumId: w.museumId, languageIds: [lang.id], minPersons: 1, maxPersons: 10, windowStart: 600, windowEnd: 960, step: 60 });
    const staffApi = (method: 'GET' | 'POST', url: string, payload?: object) => w.t.request({ method, url: `/api/v4${url}`, token: w.staff, ...(payload ? { payload } : {}) });
    const made = await staffApi('POST', '/orders', { items: [
      { type: 'Event', attributes: { id: first.id, quantity: 2 } },
      { type: 'Tour', attributes: { id: tour.id, quantity: 4, start_time: w.at(600).toISOString(), language_id: lang.id } },
    ] });
    assert.equal(made.statusCode, 201, made.body);
    const o = made.json().order;
    assert.equal((await staffApi('POST', `/orders/${o.id}/payments`, { payment: { provider: 'desk', amount_cents: o.total_price_cents, method: 'cash' } })).statusCode, 201);
    const token = await issueManageLink({ db, clock: w.t.clock }, o.id);
    const seats = async (dateId: number) => (await staffApi('GET', `/events/${ev.id}/dates/${dateId}`)).json();
    const [evItem, tourItem] = (await w.order(o.id)).items;
    const page = await w.page(`/shop/manage/${token}`);
    assert.equal((page.body.match(/\/move\/\d+/g) ?? []).length, 2, 'both items can be moved');

    const dates = await w.page(`/shop/manage/${token}/move/${evItem.id}?date=${w.day}`);
    assert.match(dates.body, new RegExp(`value="${w.at(17 * 60).toISOString()}"`));
    assert.doesNotMatch(dates.body, new RegExp(`value="${w.at(15 * 60).toISOString()}"`), 'the booked date is not offered');
    assert.equal((await w.postForm(`/shop/manage/${token}/move/${evItem.id}`, { start: w.at(17 * 60).toISOString() })).status, 303);
    const s1 = JSON.stringify(await seats(first.id));
    const s2 = JSON.stringify(await seats(second.id));
    assert.match(s1, /"available":5/, 'the old date got its seats back');
    assert.match(s2, /"available":3/, 'the new date holds them once');

    const starts = await w.page(`/shop/manage/${token}/move/${tourItem.id}?date=${w.day}`);
    assert.match(starts.body, new RegExp(`value="${w.at(720).toISOString()}"`));
    assert.equal((await w.postForm(`/shop/manage/${token}/move/${tourItem.id}`, { start: w.at(720).toISOString() })).status, 303);

    const after = await w.order(o.id);
    const [e2, t2] = after.items;
    assert.equal(new Date(e2.attributes.start_time).toISOString(), w.at(17 * 60).toISOString());
    assert.equal(new Date(t2.attributes.start_time).toISOString(), w.at(720).toISOString());
    assert.deepEqual([e2.price_cents, t2.price_cents], [evItem.price_cents, tourItem.price_cents]);
    assert.equal(after.total_price_cents, o.total_price_cents);
    const valid = (i: { attributes: { barcodes: Array<{ status: string; barcode: string }> } }) => i.attributes.barcodes.filter((b) => b.status === 'valid').map((b) => b.barcode);
    assert.equal(valid(e2).length, 2);
    assert.equal(valid(t2).length, 1, 'a tour booking keeps one barcode');
    for (const [was, now] of [[evItem, e2], [tourItem, t2]]) for (const code of valid(was)) assert.ok(!valid(now).includes(code), 'new barcodes');
    // Moved once: the tour's old start is free again for a whole group.
    const back = await w.page(`/shop/manage/${token}/move/${tourItem.id}?date=${w.day}`);
    assert.match(back.body, new RegExp(`value="${w.at(600).toISOString()}"`));
  });
});

describe('rate limit', () => {
  test('an address that keeps guessing gets 429 pages', async () => {
    let last = 0;
    for (let i = 0; i < 25; i++) last = (await w.page(`/shop/manage/mb_${String(i).padStart(43, 'z')}`)).status;
    assert.equal(last, 429);
  });
});
