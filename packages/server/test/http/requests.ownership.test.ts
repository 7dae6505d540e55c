// A booking made from a reseller's group request belongs to the reseller, documents included:
// staff accept the request (their own account books the order), yet the reseller reads and
// downloads the order's documents and its webhook endpoint receives their document.available.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';

const t = await testApp({ env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1' } });
after(() => t.close());
const db = t.database.db;
const day = f.localDate(5);
let tourId: number, langId: number, reseller: string, staff: string;

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, token, ...(payload ? { payload } : {}) });

before(async () => {
  const museumId = (await f.museum(db)).id;
  langId = (await f.language(db)).id;
  tourId = (await f.tour(db, { museumId, languageIds: [langId], maxConcurrent: 1, duration: 60 })).id;
  reseller = await t.token({ class: 'reseller' });
  staff = await t.token({ class: 'user', museumIds: [museumId], rights: ['requests:write', 'documents:read'] });
});

test("the accepted request's order and documents belong to the reseller that asked", async () => {
  const hook = await call('POST', '/webhooks', reseller, { webhook: { url: 'http://127.0.0.1:9/hook', events: ['document.available'] } });
  assert.equal(hook.statusCode, 201, hook.body);
  const endpointId = hook.json().webhook.id as number;
  const created = await call('POST', '/requests', reseller, {
    date: day,
    participants: 10,
    items: [{ tour_id: tourId, start_time: zonedInstant(day, 600, 'Europe/Berlin').toISOString(), language_id: langId }],
    customer: { name: 'Anna', surname: 'Müller', email: 'anna@example.org' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const accepted = await call('POST', `/requests/${created.json().request.id}/accept`, staff);
  assert.equal(accepted.statusCode, 200, accepted.body);
  const orderId = accepted.json().request.order_id as number;

  const listed = await call('GET', `/documents?order_id=${orderId}`, reseller);
  assert.equal(listed.statusCode, 200, listed.body);
  const docs = listed.json().documents as Array<{ id: number; kind: string }>;
  assert.deepEqual(docs.map((d) => d.kind).sort(), ['confirmation', 'invoice']);
  for (const d of docs) {
    assert.equal((await call('GET', `/documents/${d.id}`, reseller)).statusCode, 200, `document ${d.id}`);
    // Still processing (no worker here): the owner is told to retry, not 404.
    assert.equal((await call('GET', `/documents/${d.id}/download`, reseller)).statusCode, 202, `download ${d.id}`);
  }
  // Staff still reach them through their museum scope.
  assert.equal((await call('GET', `/documents/${docs[0]!.id}`, staff)).statusCode, 200);

  // The confirmation is rendered (as the render job would store it): its document.available
  // event goes to the reseller's endpoint.
  const confirmation = docs.find((d) => d.kind === 'confirmation')!.id;
  await db.execute(sql`update documents set status = 'available', content = '\\x25504446'::bytea where id = ${confirmation}`);
  await dispatchEvents(systemCtx({ db, clock: t.clock, config: t.config }));
  const delivered = await db.execute<{ n: number }>(sql`
    select count(*)::int n from webhook_deliveries w join outbox_events e on e.id = w.event_id
     where w.endpoint_id = ${endpointId} and e.type = 'document.available' and e.subject_id = ${confirmation}`);
  assert.equal(delivered.rows[0]!.n, 1);
});
