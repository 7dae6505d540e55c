// The go~mus v4 entry calls: GET /entry/scans/:id (a stored scan, museum-scoped), PUT with
// people_count (JSON, wrapped, or go~mus's form body scan[people_count]=3; the barcode's people
// inside follow when it is their entry), and GET /entry/config (the scanner's settings).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

const get = async (url: string, token = x.gateA) => {
  const r = await x.t.request({ method: 'GET', url, token });
  return { status: r.statusCode, body: r.json() };
};
const put = async (id: number, payload: object | string, token = x.gateA, form = false) => {
  const r = await x.t.request({
    method: 'PUT', url: `/api/v4/entry/scans/${id}`, token, payload,
    ...(form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
  });
  return { status: r.statusCode, body: r.json() };
};
const occupancy = async () => (await get(`/api/v4/occupancy?museum_id=${x.museumA}`, x.user)).body.occupancy;
const state = async (code: string) =>
  (await x.t.database.db.execute<{ inside_people: number; version: string }>(sql`
    select st.inside_people, st.version from entry_states st join barcodes b on b.id = st.barcode_id where b.code = ${code}`)).rows[0]!;

/** A tour for `people`, scanned in: its barcode and the valid entry scan. */
async function tourEntry(people: number, min: number) {
  const { codes } = await x.buy([{ type: 'Tour', id: x.tourId, quantity: people, startAt: x.at(min) }]);
  x.t.clock.set(x.at(min));
  const r = await x.scan(x.gateA, { barcode: codes[0]! });
  assert.equal(r.body.scan.result, 'valid');
  return { code: codes[0]!, scan: r.body.scan };
}

describe('GET /entry/scans/:id', () => {
  test('a scanner reads its museums\' scans as POST /scans answered them; others are 404', async () => {
    const { codes } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(600));
    const posted = (await x.scan(x.gateA, { barcode: codes[0]!, location: 'North' })).body.scan;
    assert.deepEqual(await get(`/api/v4/entry/scans/${posted.id}`), { status: 200, body: { scan: posted } });
    assert.deepEqual((await get(`/api/v4/entry/scans/${posted.id}`, x.gateA2)).body, { scan: posted });
    assert.equal((await get(`/api/v4/entry/scans/${posted.id}`, x.user)).status, 200);
    // Another museum's scanner: answered like a missing scan.
    assert.equal((await get(`/api/v4/entry/scans/${posted.id}`, x.gateB)).status, 404);
    assert.equal((await get('/api/v4/entry/scans/99999999')).status, 404);
    assert.equal((await get('/api/v4/entry/scans/abc')).status, 404);
    assert.equal((await get(`/api/v4/entry/scans/${posted.id}`, x.reseller)).status, 403);
  });
});

describe('PUT /entry/scans/:id', () => {
  test('a tour\'s entry admits fewer people; occupancy follows; more than covered is 422', async () => {
    const before = await occupancy();
    const { code, scan } = await tourEntry(5, 900);
    const entered = await occupancy();
    assert.equal(entered.inside, before.inside + 5);
    const v0 = Number((await state(code)).version);

    const r = await put(scan.id, { scan: { people_count: 3 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { scan: { ...scan, people_count: 3 } });
    assert.deepEqual((await get(`/api/v4/entry/scans/${scan.id}`)).body.scan.people_count, 3);
    const after = await occupancy();
    assert.deepEqual([after.inside, after.entries_today], [entered.inside - 2, entered.entries_today - 2]);
    const st = await state(code);
    assert.deepEqual([st.inside_people, Number(st.version)], [3, v0 + 1]);

    // More than the barcode covers, or fewer than one: 422 naming the field, nothing changed.
    for (const people_count of [6, 0]) {
      const bad = await put(scan.id, { people_count });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.code, 'VALIDATION_FAILED');
      assert.match(bad.body.errors.join(' '), /people_count/);
    }
    assert.equal((await put(scan.id, { people_count: 'many' })).status, 422);
    assert.equal((await get(`/api/v4/entry/scans/${scan.id}`)).body.scan.people_count, 3);
    assert.deepEqual([(await state(code)).inside_people, Number((await state(code)).version)], [3, v0 + 1]);
    assert.equal((await occupancy()).inside, after.inside);

    // Scans after the change continue from it: the exit lets the 3 out.
    const exit = await x.scan(x.gateA, { barcode: code, direction: 'exit' });
    assert.equal(exit.body.scan.result, 'valid');
    assert.equal((await occupancy()).inside, before.inside);
    // Their people have left: the entry's count changes, nobody is inside again.
    assert.equal((await put(scan.id, { people_count: 4 })).body.scan.people_count, 4);
    assert.equal((await state(code)).inside_people, 0);
    assert.equal((await occupancy()).inside, before.inside);
  });

  test('go~mus form body scan[people_count]=2, and JSON with bracket keys', async () => {
    const { code, scan } = await tourEntry(4, 960);
    const r = await put(scan.id, 'scan%5Bpeople_count%5D=2', x.gateA, true);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.scan.people_count, 2);
    assert.equal((await state(code)).inside_people, 2);
    const j = await put(scan.id, { 'scan[people_count]': 1 });
    assert.deepEqual([j.status, j.body.scan.people_count], [200, 1]);
    assert.equal((await state(code)).inside_people, 1);
    assert.equal((await put(scan.id, 'scan[people_count]=9', x.gateA, true)).status, 422);
    // Other API routes still refuse form bodies.
    const other = await x.t.request({ method: 'POST', url: '/api/v4/scans', token: x.gateA, payload: 'scan[barcode]=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(other.statusCode, 415);
  });

  test('only a valid entry scan can change; another museum\'s scan is 404', async () => {
    const { code, scan } = await tourEntry(3, 1020);
    const refused = (await x.scan(x.gateA, { barcode: code })).body.scan;
    assert.equal(refused.result, 'already_used');
    const r = await put(refused.id, { people_count: 1 });
    assert.deepEqual([r.status, r.body.code], [422, 'VALIDATION_FAILED']);
    assert.match(r.body.errors.join(' '), /people_count/);
    assert.equal((await get(`/api/v4/entry/scans/${refused.id}`)).body.scan.people_count, 3);
    const exit = (await x.scan(x.gateA, { barcode: code, direction: 'exit' })).body.scan;
    assert.equal((await put(exit.id, { people_count: 1 })).status, 422);
    const unknown = (await x.scan(x.gateA, { barcode: '123456789012-0' })).body.scan;
    assert.equal((await put(unknown.id, { people_count: 1 })).status, 422);
    assert.equal((await put(scan.id, { people_count: 1 }, x.gateB)).status, 404);
    assert.equal((await put(99999999, { people_count: 1 })).status, 404);
    assert.equal((await put(scan.id, { people_count: 1 }, x.reseller)).status, 403);
    assert.equal((await get(`/api/v4/entry/scans/${scan.id}`)).body.scan.people_count, 3);
  });

  test('a change racing scans of the same barcode: no error, and the state the rules replay to', async () => {
    for (let round = 0; round < 5; round++) {
      const { code, scan } = await tourEntry(6, 1080 + round);
      const [changed, exit, ...refused] = await Promise.all([
        put(scan.id, { people_count: 2 }),
        x.scan(x.gateA2, { barcode: code, direction: 'exit' }),
        ...Array.from({ length: 4 }, () => x.scan(x.gateA, { barcode: code })),
      ]);
      assert.deepEqual([changed.status, changed.body.scan.people_count], [200, 2]);
      assert.equal(exit.body.scan.result, 'valid');
      for (const r of refused) assert.equal(r.body.scan.result, 'already_used');
      // Whichever came first, the exit let everybody out.
      assert.equal((await state(code)).inside_people, 0);
    }
  });
});

describe('GET /entry/config', () => {
  test('the scanner account with its museums and door settings; entry_zone is ignored', async () => {
    const r = await get('/api/v4/entry/config?entry_zone=7');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const c = r.body.config;
    assert.equal(c.name, 'Gate A1');
    assert.equal(typeof c.id, 'number');
    assert.deepEqual(c.settings.museums.map((m: { id: number }) => m.id), [x.museumA]);
    assert.equal(typeof c.settings.museums[0].name, 'string');
    assert.equal(c.settings.museums[0].time_zone, 'Europe/Berlin');
    assert.deepEqual([c.settings.early_minutes, c.settings.max_clock_skew_seconds], [15, 120]);
    assert.equal(typeof c.settings.locale, 'string');
    assert.deepEqual((await get('/api/v4/entry/config')).body, r.body);
    assert.deepEqual((await get('/api/v4/entry/config', x.gateB)).body.config.settings.museums.map((m: { id: number }) => m.id), [x.museumB]);
    assert.equal((await get('/api/v4/entry/config', x.reseller)).status, 403);
  });
});
