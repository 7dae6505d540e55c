// Inventory hoarding (docs/operations.md "Limits and their settings"): one
// reseller held a whole day's seats with ten reservations. Per account, live holds and pending
// orders are limited to a share of a slot's capacity and to a count; exceeding either is a 422
// HOLD_LIMIT_EXCEEDED and writes nothing; other partners keep selling; sales are not limited.
// Control: the same requests under ATRIUM_HOLD_LIMIT_SHARE=100 and COUNT=0 (off) all pass.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as f from '../helpers/factories.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

const on = await testApp({ now: '2026-05-04T06:00:00Z', env: { ATRIUM_HOLD_LIMIT_SHARE: '25', ATRIUM_HOLD_LIMIT_COUNT: '3' } });
const off = await testApp({ now: '2026-05-04T06:00:00Z', env: { ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '0' } });
after(async () => {
  await on.close();
  await off.close();
});

async function setup(t: TestApp) {
  const m = await f.museum(t.database.db);
  const q = await f.quota(t.database.db, { museumId: m.id, capacity: 40 });
  const ticket = await f.ticket(t.database.db, { museumId: m.id, quotaIds: [q.id] });
  return { ticketId: ticket.id, hoarder: await t.token({ class: 'reseller' }), partner: await t.token({ class: 'reseller' }), staff: await t.token({ class: 'user', rights: ['*'] }) };
}
const onSetup = await setup(on);
const offSetup = await setup(off);

let day = 10;
const slot = () => `2026-05-${String(day++).padStart(2, '0')}T10:00:00+02:00`;
const hold = (t: TestApp, token: string, ticketId: number, at: string, quantity: number) =>
  t.request({ method: 'POST', url: '/api/v4/reservations', token, payload: { ticket_id: ticketId, quantity, start_at: at } });
const order = (t: TestApp, token: string, ticketId: number, at: string, quantity: number, finalize: boolean) =>
  t.request({ method: 'POST', url: '/api/v4/orders', token, payload: { finalize, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at } }] } });

async function count(t: TestApp, table: string) {
  const r = await t.database.pool.query(`select count(*)::int n from ${table}`);
  return r.rows[0].n as number;
}

describe('hold limits', () => {
  test('a share of the slot: holds and pending orders of one account stop at 25 %; others keep selling', async () => {
    const { ticketId, hoarder, partner, staff } = onSetup;
    const at = slot();
    assert.equal((await hold(on, hoarder, ticketId, at, 6)).statusCode, 201);
    const before = await count(on, 'reservations');
    const refused = await hold(on, hoarder, ticketId, at, 5);
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, 'HOLD_LIMIT_EXCEEDED');
    assert.match(refused.json().error, /25%.*10 of 40/);
    assert.equal(await count(on, 'reservations'), before, 'nothing written');
    const pending = await order(on, hoarder, ticketId, at, 5, false);
    assert.equal(pending.statusCode, 422, pending.body);
    assert.equal(pending.json().code, 'HOLD_LIMIT_EXCEEDED');
    assert.equal((await hold(on, hoarder, ticketId, at, 4)).statusCode, 201, 'up to the share');
    // Another partner, a sale by the hoarder and staff are not held back.
    assert.equal((await hold(on, partner, ticketId, at, 10)).statusCode, 201);
    assert.equal((await order(on, hoarder, ticketId, at, 8, true)).statusCode, 201, 'a finalized order is a sale');
    assert.equal((await hold(on, staff, ticketId, at, 12)).statusCode, 201, 'staff are not limited');
  });

  test('growing a hold past the share is refused; the hold stays as it was', async () => {
    const { ticketId, hoarder } = onSetup;
    const at = slot();
    const r = (await hold(on, hoarder, ticketId, at, 8)).json().reservation;
    const grow = await on.request({ method: 'PUT', url: `/api/v4/reservations/${r.reservation_token}`, token: hoarder, payload: { quantity: 11 } });
    assert.equal(grow.statusCode, 422, grow.body);
    assert.equal(grow.json().code, 'HOLD_LIMIT_EXCEEDED');
    const fine = await on.request({ method: 'PUT', url: `/api/v4/reservations/${r.reservation_token}`, token: hoarder, payload: { quantity: 10 } });
    assert.equal(fine.statusCode, 200, fine.body);
  });

  test('a count: at most 3 live holds and pending orders per account', async () => {
    const t = await testApp({ now: '2026-05-04T06:00:00Z', env: { ATRIUM_HOLD_LIMIT_SHARE: '100', ATRIUM_HOLD_LIMIT_COUNT: '3' } });
    try {
      const { ticketId, hoarder, partner } = await setup(t);
      for (let i = 0; i < 2; i++) assert.equal((await hold(t, hoarder, ticketId, slot(), 1)).statusCode, 201);
      assert.equal((await order(t, hoarder, ticketId, slot(), 1, false)).statusCode, 201);
      const fourth = await hold(t, hoarder, ticketId, slot(), 1);
      assert.equal(fourth.statusCode, 422, fourth.body);
      assert.equal(fourth.json().code, 'HOLD_LIMIT_EXCEEDED');
      assert.equal((await order(t, hoarder, ticketId, slot(), 1, false)).json().code, 'HOLD_LIMIT_EXCEEDED');
      assert.equal((await hold(t, partner, ticketId, slot(), 1)).statusCode, 201);
      // Expired holds no longer count.
      t.clock.advance(60 * 60_000);
      assert.equal((await hold(t, hoarder, ticketId, slot(), 1)).statusCode, 201);
    } finally {
      await t.close();
    }
  });

  test('control: with the limits off the same hoarding succeeds', async () => {
    const { ticketId, hoarder } = offSetup;
    const at = slot();
    for (let i = 0; i < 4; i++) assert.equal((await hold(off, hoarder, ticketId, at, 10)).statusCode, 201);
  });

  test('the defaults are on', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    const d = loadConfig({});
    assert.ok(d.holdLimitShare < 100 && d.holdLimitCount > 0, JSON.stringify(d));
  });
});
