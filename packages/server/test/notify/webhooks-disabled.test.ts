// Events recorded while a webhook endpoint is disabled are kept (docs/webhooks.md, "Delivery"):
// they are listed as deliveries without an attempt, nothing is sent meanwhile, and once the
// endpoint is enabled again they are replayed with the retry route.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { startReceiver } from './receiver.ts';

const t = await testApp({ env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1' } });
const rx = await startReceiver();
let worker: Worker | undefined;
after(async () => {
  await worker?.stop();
  await rx.close();
  await t.close();
});
const db = t.database.db;
let c: Catalogue, reseller: string;
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, token: reseller, ...(payload ? { payload } : {}) });

before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t, { dispatchIntervalMs: 50 });
});

test('an event recorded while the endpoint is disabled is kept and replayable after re-enabling', async () => {
  const created = await api('POST', '/webhooks', { webhook: { url: `${rx.base}/paused`, events: ['order.created'] } });
  assert.equal(created.statusCode, 201, created.body);
  const ep = created.json().webhook as { id: number };
  assert.equal((await api('PATCH', `/webhooks/${ep.id}`, { webhook: { enabled: false } })).statusCode, 200);

  const o = await api('POST', '/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }] });
  assert.equal(o.statusCode, 201, o.body);
  await waitFor('the event dispatched', async () => {
    const r = await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where dispatch_pending`);
    return r.rows[0]!.n === 0;
  });
  const kept = (await api('GET', `/webhooks/${ep.id}/deliveries`)).json().deliveries as Array<{ id: number; status: string; attempts: unknown[] }>;
  assert.equal(kept.length, 1, 'the event is kept as a delivery');
  assert.equal(kept[0]!.attempts.length, 0);
  assert.equal(rx.at('/paused').length, 0, 'nothing sent while disabled');

  assert.equal((await api('PATCH', `/webhooks/${ep.id}`, { webhook: { enabled: true } })).statusCode, 200);
  assert.equal((await api('POST', `/webhooks/${ep.id}/deliveries/${kept[0]!.id}/retry`)).statusCode, 202);
  await waitFor('the replay received', async () => rx.at('/paused').length === 1);
  assert.equal(rx.at('/paused')[0]!.json.data.order.id, o.json().order.id);
});
