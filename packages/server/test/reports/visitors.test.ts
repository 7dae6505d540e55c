// Visitors by hour from real scans through the API (POST /api/v4/scans): valid entries count by
// people in the museum-local hour of the scan, refused scans never, exits beside them; scope and
// range apply; the CSV export carries the same figures.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { entryFixture, type EntryFixture } from '../entry/support.ts';
import { visitorsReport } from '../../src/domain/reports/visitors.ts';
import { visitorsCsv } from '../../src/domain/reports/reportCsv.ts';
import { addDays } from '../../src/domain/time.ts';
import { staffCtx } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
  const early = await x.buySlot(2, 600); // 10:00
  const late = await x.buySlot(2, 660); // 11:00
  const scan = async (token: string, barcode: string, direction: string, result: string) => {
    const r = await x.scan(token, { barcode, direction });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.scan.result, result);
  };
  x.t.clock.set(x.at(605));
  await scan(x.gateA, early.codes[0]!, 'entry', 'valid');
  await scan(x.gateA, early.codes[1]!, 'entry', 'valid');
  await scan(x.gateA2, early.codes[0]!, 'entry', 'already_used'); // refused: not a visitor
  await scan(x.gateB, late.codes[0]!, 'entry', 'wrong_museum');
  x.t.clock.set(x.at(658)); // 10:58, inside the 11:00 slot's window
  await scan(x.gateA, late.codes[0]!, 'entry', 'valid');
  x.t.clock.set(x.at(665));
  await scan(x.gateA, late.codes[1]!, 'entry', 'valid');
  x.t.clock.set(x.at(730));
  await scan(x.gateA, early.codes[0]!, 'exit', 'valid');
});
after(() => x.t.close());

test('valid entries per museum-local hour, exits beside them, refused scans not at all', async () => {
  const r = await visitorsReport(staffCtx(x.t, [x.museumA]), { from: x.day, to: x.day });
  assert.deepEqual(r.rows, [
    { date: x.day, hour: 10, entries: 3, exits: 0 },
    { date: x.day, hour: 11, entries: 1, exits: 0 },
    { date: x.day, hour: 12, entries: 0, exits: 1 },
  ]);
  assert.equal(r.by_hour.length, 24);
  assert.deepEqual(r.by_hour[10], { hour: 10, entries: 3, exits: 0 });
  assert.deepEqual(r.by_hour[9], { hour: 9, entries: 0, exits: 0 });
  assert.deepEqual(r.total, { entries: 4, exits: 1 });
});

test('scope and range: museum B and the next day have no visitors; another museum id is 404', async () => {
  assert.deepEqual((await visitorsReport(staffCtx(x.t, [x.museumB]), { from: x.day, to: x.day })).total, { entries: 0, exits: 0 });
  const next = addDays(x.day, 1);
  assert.deepEqual((await visitorsReport(staffCtx(x.t, []), { from: next, to: next })).rows, []);
  await assert.rejects(visitorsReport(staffCtx(x.t, [x.museumB]), { from: x.day, to: x.day, museum_id: x.museumA }), { code: 'NOT_FOUND' });
  await assert.rejects(visitorsReport(staffCtx(x.t, []), { from: x.day, to: '2026-13-01' }), { code: 'VALIDATION_FAILED' });
});

test('the CSV export holds the same rows, headed in German', async () => {
  const r = await visitorsReport(staffCtx(x.t, []), { from: x.day, to: x.day });
  assert.equal(visitorsCsv(r, 'de'), `\uFEFF"Datum";"Stunde";"Eintritte";"Austritte"\r\n"${x.day}";"10:00";"3";"0"\r\n"${x.day}";"11:00";"1";"0"\r\n"${x.day}";"12:00";"0";"1"\r\n`);
});
