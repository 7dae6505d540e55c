// The go~mus entry API (entry_api.html: barcode status, entry and exit under /api/v3, scans and
// the scanner config under /api/v4/entry), called as its documentation shows with a scanner
// (entry) token: GET then PUT of a barcode (go~mus's best practice), the 422 `{"error"}` of a
// used one, an exit with `?location=`, a scan read and updated with a form body. Each test is
// named by its call, as docs/gomus-compatibility.md names it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entryFixture, type EntryFixture } from '../entry/support.ts';

let x: EntryFixture;
let code = '';
before(async () => {
  x = await entryFixture();
  code = (await x.buy([{ type: 'Tour', id: x.tourId, quantity: 4, startAt: x.at(600) }])).codes[0]!;
  x.t.clock.set(x.at(600));
});
after(() => x.t.close());

const call = (method: 'GET' | 'PUT', url: string, opts: { payload?: string; form?: boolean } = {}) => x.t.request({
  method, url, token: x.gateA,
  ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  ...(opts.form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
});

describe('go~mus entry API calls Atrium answers', () => {
  test('GET /api/v3/barcodes/:barcode', async () => {
    const res = await call('GET', `/api/v3/barcodes/${code}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(typeof (res.json().message ?? ''), 'string');
  });

  test('PUT /api/v3/barcodes/:barcode', async () => {
    const res = await call('PUT', `/api/v3/barcodes/${code}?location=Haupthaus`);
    assert.equal(res.statusCode, 200, res.body);
    // Voided: the status call now answers 422 with go~mus's simple error body.
    const again = await call('GET', `/api/v3/barcodes/${code}`);
    assert.equal(again.statusCode, 422, again.body);
    assert.equal(typeof again.json().error, 'string');
  });

  test('PUT /api/v3/barcodes/:barcode/exit', async () => {
    const res = await call('PUT', `/api/v3/barcodes/${code}/exit?location=Haupthaus`);
    assert.equal(res.statusCode, 200, res.body);
  });

  let scanId = 0;
  test('GET /entry/scans/:scan', async () => {
    const { codes } = await x.buy([{ type: 'Tour', id: x.tourId, quantity: 3, startAt: x.at(600) }]);
    const posted = (await x.scan(x.gateA, { barcode: codes[0]! })).body.scan;
    scanId = posted.id;
    const res = await call('GET', `/api/v4/entry/scans/${scanId}`);
    assert.equal(res.statusCode, 200, res.body);
    const s = res.json().scan;
    // go~mus's `is_entry`, `entry_at` and `position` are Atrium's `direction`, `scanned_at` and `location`.
    for (const k of ['id', 'barcode', 'people_count', 'is_valid', 'device', 'direction', 'scanned_at', 'location']) assert.ok(k in s, k);
    assert.equal(s.barcode, codes[0]);
  });

  test('PUT /entry/scans/:scan', async () => {
    const res = await call('PUT', `/api/v4/entry/scans/${scanId}`, { payload: 'scan[people_count]=2', form: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().scan.people_count, 2);
  });

  test('GET /entry/config', async () => {
    const res = await call('GET', '/api/v4/entry/config?entry_zone=RW50cnlab25lLTAyUmhtWP==');
    assert.equal(res.statusCode, 200, res.body);
    const cfg = res.json().config;
    for (const k of ['id', 'name', 'settings']) assert.ok(k in cfg, k);
  });
});
