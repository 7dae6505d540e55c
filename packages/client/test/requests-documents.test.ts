// Requests (docs/api-contract.md §9) and documents (docs/api-contract.md §10) against the real server. These routes are being
// built; each test is skipped, with the reason shown, until its route is in openapi/openapi.json.
import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import * as f from '../../server/test/helpers/factories.ts';
import { clientEnv, hasRoute } from './helpers/env.ts';

const env = await clientEnv({ capacity: 100 });
after(() => env.close());
beforeEach(() => env.proxy.reset());

const noRequests = hasRoute('/requests') ? false : 'skipped: no /api/v4/requests route in openapi/openapi.json yet';
const noDocuments = hasRoute('/documents/{id}/download') ? false : 'skipped: no /api/v4/documents/{id}/download route in openapi/openapi.json yet';
const REQUESTS = /\/api\/v4\/requests$/;

async function requestBody(foreignId?: string) {
  const db = env.t.database.db;
  const lang = await f.language(db);
  const tour = await f.tour(db, { museumId: env.museumId, languageIds: [lang.id] });
  return {
    ...(foreignId ? { foreign_id: foreignId } : {}),
    date: env.day,
    participants: 12,
    items: [{ tour_id: tour.id, start_time: env.slot(660), language_id: lang.id }],
    customer: { name: 'Grace', surname: 'Hopper', email: 'grace@example.org' },
  };
}

describe('requests', () => {
  test('a request always carries a foreign_id and starts pending', { skip: noRequests }, async () => {
    const r = await env.client().requests.create(await requestBody());
    assert.equal(r.status, 'pending');
    assert.match(String(r.foreign_id), /^[0-9a-f-]{36}$/);
    assert.equal((await env.client().requests.get(r.id)).id, r.id);
  });

  test('answer lost after the commit: found by foreign_id, never created twice', { skip: noRequests }, async () => {
    env.proxy.inject('POST', REQUESTS, { kind: 'drop-after' });
    const c = env.client();
    const r = await c.requests.create(await requestBody('req-drop-1'));
    assert.equal(r.foreign_id, 'req-drop-1');
    assert.equal(env.proxy.count('POST', REQUESTS), 1);
    assert.equal((await c.requests.list({ foreign_id: 'req-drop-1' })).length, 1);
  });

  test('502 before the server saw it: sent again once, one request', { skip: noRequests }, async () => {
    env.proxy.inject('POST', REQUESTS, { kind: 'status', status: 502, body: { error: 'bad gateway' } });
    const c = env.client();
    await c.requests.create(await requestBody('req-gw-1'));
    assert.equal(env.proxy.count('POST', REQUESTS), 2);
    assert.equal((await c.requests.list({ foreign_id: 'req-gw-1' })).length, 1);
  });
});

describe('documents', () => {
  test('a finalized order has documents; the download polls through 202 until the worker has made the PDF', { skip: noDocuments }, async (t) => {
    const c = env.client();
    const order = await c.orders.create({ finalize: true, items: [{ type: 'Ticket', attributes: { id: env.ticketId, quantity: 1, time: env.slot(600) } }] });
    const docs = await c.documents.list({ order_id: order.id });
    assert.ok(docs.length > 0, 'finalizing produces documents');
    const DL = new RegExp(`/documents/${docs[0]!.id}/download$`);
    // No worker yet: the server answers 202 and the client keeps polling; then the worker starts.
    const download = c.documents.download(docs[0]!.id, { deadlineMs: 30_000 });
    await new Promise((r) => setTimeout(r, 700));
    const { testWorker } = await import('../../server/test/jobs/support.ts');
    const worker = await testWorker(env.t);
    t.after(() => worker.stop());
    const file = await download;
    assert.equal(Buffer.from(file.bytes.subarray(0, 4)).toString('latin1'), '%PDF');
    assert.equal(env.proxy.seen.find((s) => DL.test(s.url))?.status, 202, 'the first answer was 202');
    assert.ok(env.proxy.count('GET', DL) >= 2);
  });
});
