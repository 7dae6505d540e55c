// A 304 answers with validators and no body, so it names no media type: validating proxies and
// HTTP caches treat a Content-Type on a body-less 304 as describing a body that is not there.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp();
after(() => t.close());

test('If-None-Match → 304 with ETag and Cache-Control, without Content-Type or body', async () => {
  const museum = await f.museum(t.database.db);
  await f.ticket(t.database.db, { museumId: museum.id });
  const first = await t.request({ method: 'GET', url: '/api/v4/tickets' });
  assert.equal(first.statusCode, 200);
  assert.match(String(first.headers['content-type']), /application\/json/);
  const etag = String(first.headers.etag);
  const again = await t.request({ method: 'GET', url: '/api/v4/tickets', headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.headers.etag, etag);
  assert.ok(again.headers['cache-control']);
  assert.equal(again.headers['content-type'], undefined);
  assert.equal(again.body, '');
});
