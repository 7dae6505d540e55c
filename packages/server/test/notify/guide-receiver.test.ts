// The partners' guide (docs/guides/webhooks.md) must not rot: its example receiver
// (docs/examples/webhook-receiver.mjs) is started as a partner would start it, as its own Node
// process on 127.0.0.1, and gets real signed events from the real worker. A tampered, a stale
// (replayed) and a repeated request are answered as the guide says.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { testApp } from '../helpers/app.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/examples/webhook-receiver.mjs');
const t = await testApp({ env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1' } });
let worker: Worker | undefined;
let child: ChildProcess | undefined;
let out = '';
after(async () => {
  child?.kill('SIGTERM');
  await worker?.stop();
  await t.close();
});
let c: Catalogue;
let token: string;
let secret: string;
let base: string;
const api = (method: 'POST' | 'PATCH', url: string, payload: object = {}) => t.request({ method, url: `/api/v4${url}`, token, payload });
const lines = () => out.trim().split('\n');

before(async () => {
  c = await catalogue(t.database.db);
  token = await t.token({ class: 'reseller' });
  // The secret comes with the endpoint, and the receiver needs it to start: register first, then
  // point the endpoint at the receiver's port.
  const created = await api('POST', '/webhooks', { webhook: { url: 'http://127.0.0.1:9/placeholder', events: ['order.created', 'order.finalized', 'order.cancelled'] } });
  assert.equal(created.statusCode, 201, created.body);
  secret = created.json().webhook.secret;
  child = spawn(process.execPath, [example], { env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  base = (await waitFor('receiver listening', async () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 30_000)) as string;
  assert.equal((await api('PATCH', `/webhooks/${created.json().webhook.id}`, { url: `${base}/atrium` })).statusCode, 200);
  worker = await testWorker(t, { dispatchIntervalMs: 50 });
});

describe('the example receiver of the webhooks guide', () => {
  test('verifies and handles real events from Atrium', async () => {
    const res = await api('POST', '/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }] });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().order.id;
    assert.equal((await api('POST', `/orders/${id}/finalize`)).statusCode, 200);
    await waitFor('both events handled', async () => lines().filter((l) => l.startsWith('order.')).length >= 2, 90_000);
    const handled = lines().filter((l) => l.startsWith('order.')).sort();
    assert.match(handled[0]!, new RegExp(`^order\\.created evt_[0-9a-f]{32} #${id} pending$`));
    assert.match(handled[1]!, new RegExp(`^order\\.finalized evt_[0-9a-f]{32} #${id} finalized$`));
    assert.ok(!out.includes('refused'), out);
  });

  test('refuses a tampered or replayed request, answers a repeat without handling it twice', async () => {
    const body = JSON.stringify({ id: 'evt_00000000000000000000000000000001', type: 'order.cancelled', created_at: new Date().toISOString(), data: { order: { id: 1, status: 'cancelled' } } });
    // One connection per request (as Atrium sends them): no keep-alive race on a slow machine.
    const send = (at: Date, b = body) =>
      new Promise<number>((resolve, reject) => {
        const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_00000000000000000000000000000001', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_00000000000000000000000000000001', at, body) };
        const req = http.request(`${base}/atrium`, { method: 'POST', headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end(b);
      });
    assert.equal(await send(new Date(), body.replace('"id":1', '"id":2')), 400, 'tampered body');
    assert.equal(await send(new Date(Date.now() - 10 * 60_000)), 400, 'timestamp ten minutes old');
    assert.equal(await send(new Date()), 204);
    assert.equal(await send(new Date()), 204, 'a repeat is acknowledged');
    await waitFor('repeat skipped', async () => out.includes('duplicate evt_00000000000000000000000000000001 skipped'), 10_000);
    assert.equal(lines().filter((l) => l.startsWith('order.cancelled evt_00000000000000000000000000000001')).length, 1);
    assert.equal(lines().filter((l) => l.startsWith('refused')).length, 2);
  });
});
