// POST /scans: every result code, the entry window at both edges (the clock is moved, never
// slept), day tickets, cancelled orders, groups, re-entry and bad input (422, nothing stored).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { checkDigit } from '../../src/domain/orders/barcodes.ts';
import { scanBatches } from '../../src/db/repositories/entryScan.ts';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

const storedScans = async () => Number((await x.t.database.db.execute<{ n: string }>(sql`select count(*) as n from scans`)).rows[0]!.n);
const entry = (token: string, barcode: string, extra: object = {}) => x.scan(token, { barcode, direction: 'entry', ...extra });

describe('scan results', () => {
  test('a single-entry ticket admits once, then answers already_used, in the museum language', async () => {
    const { codes, orderId } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(605));
    const first = await entry(x.gateA, codes[0]!);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const s = first.body.scan;
    assert.deepEqual([s.result, s.is_valid, s.message, s.entries_used, s.entries_allowed, s.people_count, s.order_id], ['valid', true, 'Gültig – Eintritt', 1, 1, 1, orderId]);
    assert.deepEqual(s.ticket, { id: x.slotTicket, title: 'Eintritt regulär' });
    assert.equal(s.start_at, x.at(600).toISOString().replace('.000Z', '') && s.start_at);
    const second = await entry(x.gateA2, codes[0]!.replace('-', ''));
    assert.deepEqual([second.status, second.body.scan.result, second.body.scan.is_valid, second.body.scan.message], [201, 'already_used', false, 'Bereits benutzt um 10:05']);
    assert.equal(second.body.scan.used_at, first.body.scan.scanned_at);
  });

  test('the slot window opens 15 minutes before the slot and closes at its end', async () => {
    const { codes } = await x.buySlot(4, 600); // 10:00-10:30
    x.t.clock.set(new Date(x.at(585).getTime() - 1));
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'not_yet_valid');
    x.t.clock.set(x.at(585));
    assert.equal((await entry(x.gateA, codes[1]!)).body.scan.result, 'valid');
    x.t.clock.set(new Date(x.at(630).getTime() - 1));
    assert.equal((await entry(x.gateA, codes[2]!)).body.scan.result, 'valid');
    x.t.clock.set(x.at(630));
    assert.equal((await entry(x.gateA, codes[3]!)).body.scan.result, 'expired');
    // The refused one is not used up: it still enters inside its window.
    x.t.clock.set(x.at(600));
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'valid');
  });

  test('a slot window ends at the ticket\'s last entry when that comes first', async () => {
    const { codes } = await x.buySlot(2, 1005); // 16:45-17:15, last entry 17:00
    x.t.clock.set(new Date(x.at(1020).getTime() - 1));
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'valid');
    x.t.clock.set(x.at(1020));
    assert.equal((await entry(x.gateA, codes[1]!)).body.scan.result, 'expired');
  });

  test('a day ticket is valid on its museum-local date only', async () => {
    const { codes } = await x.buy([{ type: 'Ticket', id: x.dayTicket, quantity: 3, startAt: x.at(0) }]);
    x.t.clock.set(new Date(x.at(0).getTime() - 1));
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'not_yet_valid');
    x.t.clock.set(x.at(0));
    assert.equal((await entry(x.gateA, codes[1]!)).body.scan.result, 'valid');
    x.t.clock.set(x.at(0, 1));
    assert.equal((await entry(x.gateA, codes[2]!)).body.scan.result, 'expired');
  });

  test('cancelling the order makes its barcodes refuse at once', async () => {
    const { codes, orderId } = await x.buySlot(2, 660);
    x.t.clock.set(x.at(655));
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'valid');
    const c = await x.t.request({ method: 'POST', url: `/api/v4/orders/${orderId}/cancellations`, token: x.reseller, payload: {} });
    assert.equal(c.statusCode, 200, c.body);
    const r = await entry(x.gateA, codes[1]!);
    assert.deepEqual([r.body.scan.result, r.body.scan.is_valid, r.body.scan.message], ['cancelled', false, 'Storniert']);
    assert.equal((await x.scan(x.gateA, { barcode: codes[0]!, direction: 'exit' })).body.scan.result, 'cancelled');
  });

  test('another museum\'s gate answers wrong_museum and learns nothing else', async () => {
    const { codes } = await x.buySlot(1, 690);
    x.t.clock.set(x.at(690));
    const r = await entry(x.gateB, codes[0]!);
    assert.equal(r.status, 201);
    assert.deepEqual([r.body.scan.result, r.body.scan.ticket, r.body.scan.order_id, r.body.scan.museum_id], ['wrong_museum', null, null, x.museumB]);
    // Not used up by the wrong gate.
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'valid');
  });

  test('unknown and malformed codes are refused scans, stored like every other', async () => {
    const before = await storedScans();
    const digits = '000000000001';
    for (const code of [`${digits}-${checkDigit(digits)}`, `${digits}-${(checkDigit(digits) + 1) % 10}`, 'hello <script>', 'x'.repeat(64)]) {
      const r = await entry(x.gateA, code);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.deepEqual([r.body.scan.result, r.body.scan.message], ['unknown', 'Unbekannter Code']);
    }
    assert.equal(await storedScans(), before + 4);
  });

  test('bad input is a 422 and stores nothing', async () => {
    const { codes } = await x.buySlot(1, 720);
    x.t.clock.set(x.at(720));
    const before = await storedScans();
    const cases: object[] = [
      { barcode: 'x'.repeat(65) },
      { barcode: '' },
      { barcode: codes[0]!, people_count: 2 },
      { barcode: codes[0]!, people_count: 0 },
      { barcode: codes[0]!, direction: 'sideways' },
      { barcode: codes[0]!, scanned_at: new Date(x.at(720).getTime() + 3 * 60_000).toISOString() },
      { barcode: codes[0]!, scanned_at: 'yesterday' },
      { barcode: codes[0]!, device_scan_id: 'd'.repeat(101) },
    ];
    for (const body of cases) {
      const r = await x.scan(x.gateA, body);
      assert.equal(r.status, 422, `${JSON.stringify(body)} -> ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
    }
    assert.equal(await storedScans(), before);
    // Within the allowed skew a device clock slightly ahead is fine.
    const ok = await x.scan(x.gateA, { barcode: codes[0]!, scanned_at: new Date(x.at(720).getTime() + 60_000).toISOString() });
    assert.equal(ok.body.scan.result, 'valid');
  });

  test('a tour barcode admits its group, and no more people than it covers', async () => {
    const { codes } = await x.buy([{ type: 'Tour', id: x.tourId, quantity: 8, startAt: x.at(840) }]);
    x.t.clock.set(x.at(830));
    assert.equal((await entry(x.gateA, codes[0]!, { people_count: 9 })).status, 422);
    const r = await entry(x.gateA, codes[0]!);
    assert.deepEqual([r.body.scan.result, r.body.scan.people_count], ['valid', 8]);
  });
});

describe('entry rules', () => {
  test('re-entry after exit does not use an entry; without exit it is already_used', async () => {
    const rules = await x.t.request({ method: 'PUT', url: `/api/v4/tickets/${x.slotTicket}/entry_rules`, token: x.user, payload: { reentry: true } });
    assert.equal(rules.statusCode, 200, rules.body);
    const { codes } = await x.buySlot(1, 750);
    x.t.clock.set(x.at(750));
    const seq = [['entry', 'valid'], ['entry', 'already_used'], ['exit', 'valid'], ['exit', 'already_used'], ['entry', 'valid']];
    for (const [direction, expected] of seq) {
      const r = await x.scan(x.gateA, { barcode: codes[0]!, direction });
      assert.equal(r.body.scan.result, expected, `${direction} -> ${JSON.stringify(r.body.scan)}`);
      assert.equal(r.body.scan.entries_used, 1);
    }
    // Without re-entry an exit does not give the entry back.
    await x.t.request({ method: 'PUT', url: `/api/v4/tickets/${x.slotTicket}/entry_rules`, token: x.user, payload: { reentry: false } });
    assert.equal((await x.scan(x.gateA, { barcode: codes[0]!, direction: 'exit' })).body.scan.result, 'valid');
    assert.equal((await entry(x.gateA, codes[0]!)).body.scan.result, 'already_used');
  });

  test('entries_allowed 2 admits twice, and the order item shows entries_used', async () => {
    await x.t.request({ method: 'PUT', url: `/api/v4/tickets/${x.slotTicket}/entry_rules`, token: x.user, payload: { entries_allowed: 2, early_minutes: 30 } });
    const { codes, orderId } = await x.buySlot(1, 780);
    x.t.clock.set(x.at(750)); // 30 minutes early
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await entry(x.gateA, codes[0]!)).body.scan);
    assert.deepEqual(results.map((s) => [s.result, s.entries_used, s.entries_allowed]), [['valid', 1, 2], ['valid', 2, 2], ['already_used', 2, 2]]);
    const o = await x.t.request({ method: 'GET', url: `/api/v4/orders/${orderId}`, token: x.reseller });
    assert.equal(o.json().order.items[0].entries_used, 2);
    await x.t.request({ method: 'PUT', url: `/api/v4/tickets/${x.slotTicket}/entry_rules`, token: x.user, payload: {} });
  });
});

describe('a rush at the gates (group commit, docs/adr/0027-scans-without-a-held-lock.md)', () => {
  test('scans arriving together are stored together, each with its own verdict and event', async () => {
    const { codes } = await x.buySlot(30, 600);
    const { codes: [shared] } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(605));
    const stats = scanBatches(x.t.database.pool).stats;
    const before = { ...stats };
    const scansBefore = await storedScans();
    const events = async () => Number((await x.t.database.db.execute<{ n: string }>(sql`select count(*) as n from outbox_events where type = 'scan.created'`)).rows[0]!.n);
    const eventsBefore = await events();
    // 30 distinct barcodes, and 10 gates at once on one more: all at the same moment.
    const answers = await Promise.all([...codes.map((c) => entry(x.gateA, c)), ...Array.from({ length: 10 }, () => entry(x.gateA2, shared!))]);
    assert.deepEqual(answers.map((a) => a.status), Array(40).fill(201));
    assert.deepEqual(answers.slice(0, 30).map((a) => a.body.scan.result), Array(30).fill('valid'));
    const sharedResults = answers.slice(30).map((a) => a.body.scan.result).sort();
    assert.deepEqual(sharedResults, ['already_used', ...Array(8).fill('already_used'), 'valid'].sort());
    assert.equal(await storedScans(), scansBefore + 40);
    assert.equal(await events(), eventsBefore + 40);
    // Some scans shared a call (entry_scan_store_batch): the case this test is about happened.
    assert.ok(stats.batches > before.batches, `no batch was written: ${JSON.stringify(stats)}`);
    // Each answer carries its own scan id, and the event of that scan carries the same JSON.
    const ids = answers.map((a) => a.body.scan.id);
    assert.equal(new Set(ids).size, 40);
    const [ev] = (await x.t.database.db.execute<{ data: { scan: { id: number; result: string } } }>(sql`select data from outbox_events where type = 'scan.created' and (data->'scan'->>'id')::bigint = ${ids[0]}`)).rows;
    assert.deepEqual(ev!.data.scan, answers[0]!.body.scan);
  });
});
