// Offline operation and the read side: device_scan_id replays, scans posted late with their
// scanned_at (the earliest scan of a single-entry barcode wins), the manifest with its ETag, the
// scan history and occupancy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

const get = async (token: string, url: string, headers: Record<string, string> = {}) => {
  const r = await x.t.request({ method: 'GET', url, token, headers });
  return { status: r.statusCode, headers: r.headers, body: r.body ? r.json() : null };
};

describe('offline scanning', () => {
  test('a repeated device_scan_id replays the first answer with 200 and stores nothing', async () => {
    const { codes } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(600));
    const first = await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'A1-0001' });
    assert.equal(first.status, 201);
    const again = await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'A1-0001' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    // The same id from another device is that device's own scan.
    const other = await x.scan(x.gateA2, { barcode: codes[0]!, device_scan_id: 'A1-0001' });
    assert.deepEqual([other.status, other.body.scan.result], [201, 'already_used']);
    const list = await get(x.user, `/api/v4/scans?barcode=${codes[0]}`);
    assert.equal(list.body.meta.total_count, 2);
  });

  test('a device_scan_id repeated with another barcode is refused with 422 and stores nothing', async () => {
    const { codes } = await x.buySlot(2, 600);
    x.t.clock.set(x.at(600));
    const first = await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'A1-reused' });
    assert.deepEqual([first.status, first.body.scan.result], [201, 'valid']);
    // The device reuses the id for the second ticket: it must not be told the first one's verdict.
    const reused = await x.scan(x.gateA, { barcode: codes[1]!, device_scan_id: 'A1-reused' });
    assert.equal(reused.status, 422, JSON.stringify(reused.body));
    assert.equal(reused.body.code, 'VALIDATION_FAILED');
    assert.match(reused.body.error, /device_scan_id was already used for another barcode/);
    assert.equal((await get(x.user, `/api/v4/scans?barcode=${codes[1]}`)).body.meta.total_count, 0, 'nothing stored');
    // A malformed code is a barcode too: the id stays bound to the first one.
    assert.equal((await x.scan(x.gateA, { barcode: 'not-a-code', device_scan_id: 'A1-reused' })).status, 422);
    // The same barcode with the same id is still a replay, and the second ticket scans normally.
    assert.equal((await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'A1-reused' })).status, 200);
    const fresh = await x.scan(x.gateA, { barcode: codes[1]!, device_scan_id: 'A1-fresh' });
    assert.deepEqual([fresh.status, fresh.body.scan.result], [201, 'valid']);
  });

  test('an earlier scan arriving later takes the entry; the other becomes already_used', async () => {
    const { codes } = await x.buySlot(1, 630);
    x.t.clock.set(x.at(640));
    const online = await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'on-1' });
    assert.equal(online.body.scan.result, 'valid');
    // Gate A2 was offline and scanned the same ticket at 10:35; it syncs at 10:45.
    x.t.clock.set(x.at(645));
    const late = await x.scan(x.gateA2, { barcode: codes[0]!, device_scan_id: 'off-1', scanned_at: x.at(635).toISOString() });
    assert.deepEqual([late.status, late.body.scan.result, late.body.scan.entries_used], [201, 'valid', 1]);
    const list = await get(x.user, `/api/v4/scans?barcode=${codes[0]}`);
    assert.deepEqual(list.body.scans.map((s: any) => [s.device.name, s.result, s.revised]), [['Gate A1', 'already_used', true], ['Gate A2', 'valid', false]]);
    // The replay of the first scan still answers what its gate was told.
    const replay = await x.scan(x.gateA, { barcode: codes[0]!, device_scan_id: 'on-1' });
    assert.deepEqual([replay.status, replay.body.scan.result], [200, 'valid']);
    // Its entries stay at one, whatever order the scans came in.
    const m = await get(x.gateA, `/api/v4/scans/manifest?museum_id=${x.museumA}&date=${x.day}`);
    assert.equal(m.body.manifest.barcodes.find((b: any) => b.barcode === codes[0]).entries_used, 1);
  });

  test('a late scan outside its window is refused by its own time, not the arrival time', async () => {
    const { codes } = await x.buySlot(2, 660);
    x.t.clock.set(x.at(700)); // after the slot ended
    const inWindow = await x.scan(x.gateA, { barcode: codes[0]!, scanned_at: x.at(662).toISOString() });
    assert.equal(inWindow.body.scan.result, 'valid');
    const early = await x.scan(x.gateA, { barcode: codes[1]!, scanned_at: x.at(600).toISOString() });
    assert.equal(early.body.scan.result, 'not_yet_valid');
  });
});

describe('manifest, history and occupancy', () => {
  test('the manifest lists the day\'s barcodes with their window, and answers 304 while unchanged', async () => {
    const { codes } = await x.buySlot(2, 900);
    x.t.clock.set(x.at(480));
    const url = `/api/v4/scans/manifest?museum_id=${x.museumA}&date=${x.day}`;
    const m = await get(x.gateA, url);
    assert.equal(m.status, 200);
    const b = m.body.manifest.barcodes.find((e: any) => e.barcode === codes[0]);
    assert.deepEqual([b.entries_allowed, b.entries_used, b.reentry, b.people, b.inside], [1, 0, false, 1, false]);
    assert.equal(new Date(b.opens_at).getTime(), x.at(885).getTime());
    assert.equal(new Date(b.closes_at).getTime(), x.at(930).getTime());
    const etag = m.headers.etag as string;
    assert.match(etag, /^"[\w-]+"$/);
    assert.equal((await get(x.gateA, url, { 'if-none-match': etag })).status, 304);
    x.t.clock.set(x.at(900));
    await x.scan(x.gateA, { barcode: codes[0]! });
    const changed = await get(x.gateA, url, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
    // Another museum's gate may not read it; a museum outside the scope is a 404.
    assert.equal((await get(x.gateB, url)).status, 404);
    assert.equal((await get(x.gateA, `/api/v4/scans/manifest?museum_id=${x.museumA}&date=2026-13-40`)).status, 422);
  });

  test('the manifest is served for today and tomorrow only; another date is a 422', async () => {
    x.t.clock.set(x.at(480));
    const manifest = (offset: number) => get(x.gateA, `/api/v4/scans/manifest?museum_id=${x.museumA}&date=${x.at(600, offset).toISOString().slice(0, 10)}`);
    assert.equal((await manifest(0)).status, 200);
    assert.equal((await manifest(1)).status, 200, 'tomorrow: loaded the evening before');
    for (const offset of [2, 30, -1]) {
      const r = await manifest(offset);
      assert.equal(r.status, 422, `${offset} days: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.match(r.body.error, /today and tomorrow/);
    }
    // Without a date: today.
    assert.equal((await get(x.gateA, `/api/v4/scans/manifest?museum_id=${x.museumA}`)).body.manifest.date, x.day);
  });

  test('occupancy counts people inside, entries and exits of today by hour', async () => {
    const { codes } = await x.buySlot(3, 960);
    x.t.clock.set(x.at(955));
    const before = (await get(x.gateA, `/api/v4/occupancy?museum_id=${x.museumA}`)).body.occupancy;
    for (const c of codes) await x.scan(x.gateA, { barcode: c });
    await x.scan(x.gateA, { barcode: codes[0]!, direction: 'exit' });
    await x.scan(x.gateA, { barcode: codes[0]!, direction: 'exit' }); // not inside any more: refused, not counted
    const o = (await get(x.gateA, `/api/v4/occupancy?museum_id=${x.museumA}`)).body.occupancy;
    assert.equal(o.inside - before.inside, 2);
    assert.equal(o.entries_today - before.entries_today, 3);
    assert.equal(o.exits_today - before.exits_today, 1);
    const h15 = o.by_hour.find((h: any) => h.hour === 15);
    assert.ok(h15.entries >= 3);
    assert.equal((await get(x.gateB, `/api/v4/occupancy?museum_id=${x.museumA}`)).status, 404);
  });

  test('the history filters by museum, date, barcode and device, within the caller\'s museums', async () => {
    const all = await get(x.user, `/api/v4/scans?museum_id=${x.museumA}&date=${x.day}&per_page=100`);
    assert.ok(all.body.scans.length > 5);
    assert.ok(all.body.scans.every((s: any) => s.museum_id === x.museumA));
    const byDevice = await get(x.user, `/api/v4/scans?device=${encodeURIComponent('Gate A2')}`);
    assert.ok(byDevice.body.scans.length >= 2 && byDevice.body.scans.every((s: any) => s.device.name === 'Gate A2'));
    const otherDay = await get(x.user, `/api/v4/scans?museum_id=${x.museumA}&date=2020-01-01`);
    assert.equal(otherDay.body.meta.total_count, 0);
    const gateB = await get(x.gateB, '/api/v4/scans');
    assert.ok(gateB.body.scans.every((s: any) => s.museum_id === x.museumB));
  });
});
