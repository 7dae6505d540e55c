// Webhooks end to end: real orders, the real worker and outbox dispatcher, a real HTTP receiver
// on 127.0.0.1 (ATRIUM_WEBHOOKS_ALLOW_PRIVATE=1) and signatures checked by the independent
// Standard Webhooks verifier (the `standardwebhooks` package's Webhook.verify) plus a hand-written
// HMAC. Short retry waits come from ATRIUM_WEBHOOKS_RETRY_SCHEDULE.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { testApp } from '../helpers/app.ts';
import { catalogue, testWorker, waitFor as waitLong, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { startReceiver, type Received } from './receiver.ts';

const t = await testApp({
  env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1', ATRIUM_WEBHOOKS_RETRY_SCHEDULE: '0.1,0.1,0.1', ATRIUM_WEBHOOKS_TIMEOUT_MS: '700' },
});
const rx = await startReceiver();
let worker: Worker | undefined;
after(async () => {
  await worker?.stop();
  await rx.close();
  await t.close();
});
const db = t.database.db;
// Generous but bounded: the machine running the suite may be busy.
const waitFor = <T>(what: string, check: () => Promise<T>) =>
  waitLong(what, check, 90_000).catch(async (err) => {
    // What the deliveries are waiting for, in the failure message.
    const pending = await db.execute(sql`select count(*)::int n from outbox_events where dispatch_pending`);
    const deliveries = await db.execute(sql`select id, endpoint_id, status, attempt_count, sending_until from webhook_deliveries order by id`);
    const jobs = await db.execute(sql`select task_identifier, attempts, run_at, locked_at, last_error from graphile_worker.jobs order by id`);
    throw new Error(`${(err as Error).message}; events pending: ${JSON.stringify(pending.rows)}; deliveries: ${JSON.stringify(deliveries.rows)}; jobs: ${JSON.stringify(jobs.rows).slice(0, 3000)}`);
  });
let c: Catalogue;
const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, token, ...(payload ? { payload } : {}) });

async function endpoint(token: string, path: string, events: string[]) {
  const res = await api('POST', '/webhooks', token, { webhook: { url: `${rx.base}${path}`, events } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().webhook as { id: number; secret: string; secret_last4: string };
}
function verified(secret: string, r: Received) {
  const payload = new Webhook(secret).verify(r.body, r.headers) as { id: string };
  // The same by hand: HMAC-SHA256 over "id.timestamp.body" with the base64 key after whsec_.
  const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`)
    .digest('base64');
  assert.ok(r.headers['webhook-signature']!.split(' ').includes(`v1,${mac}`));
  assert.equal(payload.id, r.headers['webhook-id']);
  return payload;
}
const order = async (token: string, extra: object = {}) => {
  const res = await api('POST', '/orders', token, { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }], ...extra });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().order as { id: number; items: Array<{ id: number }> };
};

let resellerA: string, resellerB: string, staff: string;
before(async () => {
  c = await catalogue(db);
  resellerA = await t.token({ class: 'reseller' });
  resellerB = await t.token({ class: 'reseller' });
  staff = await t.token({ class: 'user', rights: ['webhooks:write', 'orders:write'] });
  worker = await testWorker(t, { dispatchIntervalMs: 50, log: process.env.DEBUG_WORKER ? { error: (o: object, m: string) => console.error(m, o), warn: (o: object, m: string) => console.error(m, o), info() {}, debug() {} } : undefined });
});

describe('webhooks', () => {
  test('create, finalize, cancel: exactly one signed event each per subscribed endpoint; never to another reseller', async () => {
    const ORDER_EVENTS = ['order.created', 'order.finalized', 'order.cancelled'];
    const a = await endpoint(resellerA, '/a', ORDER_EVENTS);
    const b = await endpoint(resellerB, '/b', ORDER_EVENTS);
    const u = await endpoint(staff, '/u', ORDER_EVENTS);
    assert.match(a.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = (await api('GET', `/webhooks/${a.id}`, resellerA)).json().webhook;
    assert.equal(listed.secret, undefined);
    assert.equal(listed.secret_last4, a.secret.slice(-4));
    assert.equal((await api('GET', `/webhooks/${a.id}`, resellerB)).statusCode, 404);

    const o = await order(resellerA);
    assert.equal((await api('POST', `/orders/${o.id}/finalize`, resellerA)).statusCode, 200);
    assert.equal((await api('POST', `/orders/${o.id}/cancellations`, resellerA, {})).statusCode, 200);
    await waitFor('three events at /a and /u', async () => rx.at('/a').length >= 3 && rx.at('/u').length >= 3);
    // A fourth delivery would arrive within a dispatch interval: give it that chance.
    await new Promise((r) => setTimeout(r, 400));
    for (const [path, secret] of [['/a', a.secret], ['/u', u.secret]] as const) {
      const got = rx.at(path);
      // Deliveries run in parallel jobs, so they may arrive in any order (Standard Webhooks makes
      // no ordering promise); each event arrives exactly once.
      assert.deepEqual(got.map((g) => g.json.type).sort(), [...ORDER_EVENTS].sort(), path);
      assert.equal(new Set(got.map((g) => g.json.id)).size, 3);
      for (const g of got) {
        verified(secret, g);
        assert.match(g.json.id, /^evt_[0-9a-f]{32}$/);
        assert.equal(g.json.data.order.id, o.id);
      }
      // Each event shows the order as it was when it happened, however late it is dispatched
      // (snapshots, docs/adr/0023). The cancellation names exactly its items.
      const byType = Object.fromEntries(got.map((g) => [g.json.type, g.json.data.order]));
      assert.equal(byType['order.created'].status, 'pending');
      assert.equal(byType['order.finalized'].status, 'finalized');
      assert.equal(byType['order.finalized'].items[0].status, 'active');
      assert.equal(byType['order.cancelled'].status, 'cancelled');
      const cancelled = got.find((g) => g.json.type === 'order.cancelled')!;
      assert.deepEqual(cancelled.json.data.cancelled_item_ids, [o.items[0]!.id]);
      // A wrong secret does not verify.
      assert.throws(() => new Webhook(b.secret).verify(got[0]!.body, got[0]!.headers));
    }
    assert.deepEqual(rx.at('/b'), []);
    // Reseller B's own order reaches B (and staff), never A.
    const ob = await order(resellerB);
    await waitFor('B gets its order', async () => rx.at('/b').length === 1 && rx.at('/u').length === 4);
    verified(b.secret, rx.at('/b')[0]!);
    assert.equal(rx.at('/b')[0]!.json.data.order.id, ob.id);
    assert.equal(rx.at('/a').length, 3);
    for (const id of [a.id, b.id, u.id]) {
      const tok = id === a.id ? resellerA : id === b.id ? resellerB : staff;
      assert.equal((await api('DELETE', `/webhooks/${id}`, tok)).statusCode, 204);
    }
  });

  test('a receiver failing twice then recovering gets the event on the third attempt; the log shows all three', async () => {
    rx.behaviour.set('/flaky', { failFirst: 2 });
    const ep = await endpoint(resellerA, '/flaky', ['order.created']);
    const o = await order(resellerA);
    await waitFor('third attempt', async () => rx.at('/flaky').length === 3);
    const got = rx.at('/flaky');
    assert.equal(new Set(got.map((g) => g.json.id)).size, 1, 'the same event each time');
    for (const g of got) verified(ep.secret, g);
    assert.equal(got[0]!.json.data.order.id, o.id);
    const d = await waitFor('succeeded', async () => {
      const r = (await api('GET', `/webhooks/${ep.id}/deliveries`, resellerA)).json().deliveries[0];
      return r?.status === 'succeeded' ? r : null;
    });
    assert.deepEqual(d.attempts.map((x: { status_code: number }) => x.status_code), [503, 503, 200]);
    assert.equal(d.attempts[0].error, 'HTTP 503');
    assert.equal(d.attempts[0].response_excerpt, 'not yet (1)');
    await api('DELETE', `/webhooks/${ep.id}`, resellerA);
  });

  test('hanging, failing, redirecting and huge answers: bounded attempts, reasons logged, then the endpoint is disabled', async () => {
    const paths = ['/hang', '/500', '/redirect', '/huge'];
    for (const p of paths) rx.behaviour.set(p, p.slice(1) as 'hang');
    const tokenC = await t.token({ class: 'reseller' });
    const eps = await Promise.all(paths.map((p) => endpoint(tokenC, p, ['order.created'])));
    await order(tokenC);
    const started = Date.now();
    for (const [i, ep] of eps.entries()) {
      const w = await waitFor(`${paths[i]} disabled`, async () => {
        const r = (await api('GET', `/webhooks/${ep.id}`, tokenC)).json().webhook;
        return r.enabled ? null : r;
      });
      assert.match(w.disabled_reason, /failed 4 times/);
      const d = (await api('GET', `/webhooks/${ep.id}/deliveries`, tokenC)).json().deliveries[0];
      assert.equal(d.status, 'failed');
      assert.equal(d.attempts.length, 4, paths[i]);
      const reason = d.attempts[0].error as string;
      if (paths[i] === '/hang') assert.match(reason, /no answer within 700 ms/);
      if (paths[i] === '/500') assert.equal(reason, 'HTTP 500');
      if (paths[i] === '/redirect') assert.match(reason, /^redirect to .* not followed$/);
      if (paths[i] === '/huge') assert.ok(d.attempts.every((x: { response_excerpt: string }) => x.response_excerpt.length <= 1024));
    }
    assert.equal(rx.at('/hang').length, 4);
    assert.equal(rx.got.filter((g) => g.path === '/elsewhere').length, 0, 'redirect not followed');
    assert.ok(Date.now() - started < 15_000);

    // Re-enabled and replayed by hand, it arrives (the receiver works again).
    rx.behaviour.set('/500', 'ok');
    const ep = eps[1]!;
    assert.equal((await api('POST', `/webhooks/${ep.id}/deliveries/1/retry`, tokenC)).statusCode, 404);
    const delivery = (await api('GET', `/webhooks/${ep.id}/deliveries`, tokenC)).json().deliveries[0];
    assert.equal((await api('POST', `/webhooks/${ep.id}/deliveries/${delivery.id}/retry`, tokenC)).statusCode, 422, 'disabled: enable first');
    assert.equal((await api('PATCH', `/webhooks/${ep.id}`, tokenC, { enabled: true })).json().webhook.disabled_reason, null);
    assert.equal((await api('POST', `/webhooks/${ep.id}/deliveries/${delivery.id}/retry`, tokenC)).statusCode, 202);
    await waitFor('replayed', async () => rx.at('/500').length === 5);
    verified(eps[1]!.secret, rx.at('/500')[4]!);
    for (const e of eps) await api('DELETE', `/webhooks/${e.id}`, tokenC);
  });

  test('an event committed while no worker runs is delivered after the restart', async () => {
    await worker!.stop();
    worker = undefined;
    const ep = await endpoint(resellerA, '/restart', ['order.created', 'order.finalized']);
    const o = await order(resellerA, { finalize: true });
    const pending = await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where subject_id = ${o.id} and dispatch_pending`);
    assert.equal(pending.rows[0]!.n, 2);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.at('/restart').length, 0);
    worker = await testWorker(t, { dispatchIntervalMs: 50 });
    await waitFor('both delivered', async () => rx.at('/restart').length === 2);
    assert.deepEqual(rx.at('/restart').map((g) => g.json.type).sort(), ['order.created', 'order.finalized']);
    for (const g of rx.at('/restart')) verified(ep.secret, g);
  });

  test('POST /webhooks/:id/test sends a signed webhook.test event to that endpoint only', async () => {
    const ep = await endpoint(resellerB, '/test', ['request.created']);
    const res = await api('POST', `/webhooks/${ep.id}/test`, resellerB);
    assert.equal(res.statusCode, 202, res.body);
    await waitFor('test event', async () => rx.at('/test').length === 1);
    const p = verified(ep.secret, rx.at('/test')[0]!) as unknown as { type: string; data: { webhook: { id: number } } };
    assert.equal(p.type, 'webhook.test');
    assert.equal(p.data.webhook.id, ep.id);
  });

  test('a user token needs the webhooks right; public tokens may not', async () => {
    const noRight = await t.token({ class: 'user', rights: ['orders:write'] });
    assert.equal((await api('GET', '/webhooks', noRight)).statusCode, 403);
    const pub = await t.token({ class: 'public' });
    assert.equal((await api('POST', '/webhooks', pub, { url: `${rx.base}/x`, events: ['order.created'] })).statusCode, 403);
  });
});
