// The go~mus v3 entry API: check (nothing stored), entry and exit by barcode in the path,
// `?location=`; 200 {message} when valid, 422 {error} when not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

const call = async (method: 'GET' | 'PUT', url: string, token = x.gateA) => {
  const r = await x.t.request({ method, url, token });
  return { status: r.statusCode, body: r.json() };
};

describe('go~mus entry API', () => {
  test('check, entry, second entry, exit', async () => {
    const { codes } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(600));
    const code = codes[0]!;
    assert.deepEqual(await call('GET', `/api/v3/barcodes/${code}`), { status: 200, body: { message: 'Gültig – Eintritt' } });
    // A check uses nothing: still valid, and no scan stored.
    assert.equal((await call('GET', `/api/v3/barcodes/${code}`)).status, 200);
    const list = async () => (await x.t.request({ method: 'GET', url: `/api/v4/scans?barcode=${code}`, token: x.user })).json().scans;
    assert.equal((await list()).length, 0);
    assert.deepEqual(await call('PUT', `/api/v3/barcodes/${code}?location=North%20door`), { status: 200, body: { message: 'Gültig – Eintritt' } });
    const again = await call('PUT', `/api/v3/barcodes/${code}`);
    assert.deepEqual(Object.keys(again.body), ['error', 'code', 'request_id']);
    assert.deepEqual([again.status, again.body.error, again.body.code], [422, 'Bereits benutzt um 10:00', 'SCAN_REFUSED']);
    assert.equal((await call('GET', `/api/v3/barcodes/${code}`)).status, 422);
    assert.deepEqual(await call('PUT', `/api/v3/barcodes/${code}/exit`), { status: 200, body: { message: 'Ausgang erfasst' } });
    const stored = await list();
    assert.deepEqual(stored.map((s: any) => [s.direction, s.result, s.location]), [['entry', 'valid', 'North door'], ['entry', 'already_used', null], ['exit', 'valid', null]]);
  });

  test('unknown, malformed, over-long and another museum\'s barcodes', async () => {
    const { codes } = await x.buySlot(1, 630);
    x.t.clock.set(x.at(630));
    assert.equal((await call('PUT', '/api/v3/barcodes/123456789012-0')).body.error, 'Unbekannter Code');
    assert.equal((await call('PUT', '/api/v3/barcodes/%3Cscript%3E')).body.error, 'Unbekannter Code');
    const long = await call('PUT', `/api/v3/barcodes/${'9'.repeat(65)}`);
    assert.deepEqual([long.status, long.body.code], [422, 'VALIDATION_FAILED']);
    assert.equal((await call('PUT', `/api/v3/barcodes/${codes[0]}`, x.gateB)).body.error, 'Falsches Museum');
    assert.equal((await call('PUT', `/api/v3/barcodes/${codes[0]}`, x.reseller)).status, 403);
  });
});
