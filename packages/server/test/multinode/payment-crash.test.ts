// Drill: a server is SIGKILLed after it asked Stripe about a paid checkout and before it settled
// the order (the stand-in holds its answer until the process is dead). Stripe sends the webhook
// again, to the other of two `atrium serve` processes on the same database, and once more to the
// restarted one: the order is finalized exactly once, `order.paid` and `order.finalized` are
// recorded once, and the visitor gets one confirmation mail. The kill is checked to have landed in
// between (nothing was written before the restart), so the drill cannot pass by missing it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { startStripeStandin } from '../../scripts/standins/stripe-standin.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { addDays, localDateOf, zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { bearer, startNode, type Node } from './nodes.ts';

const db = await freshDatabase();
const stripe = await startStripeStandin();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-paycrash-'));
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await stripe.close();
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const museumId = (await f.museum(db.db)).id;
const quota = await f.quota(db.db, { museumId, capacity: 20 });
const ticket = await f.ticket(db.db, { museumId, quotaIds: [quota.id] });
const user = (await createToken({ db: db.db, clock: systemClock }, { class: 'user', name: 'shop', rights: ['orders:write'] })).token;
const env: Record<string, string> = {
  DATABASE_URL: db.url, ATRIUM_DATA_DIR: dataDir, ATRIUM_PAYMENT_PROVIDERS: 'stripe,desk,invoice',
  STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_BASE: stripe.base,
  ATRIUM_PUBLIC_URL: 'https://tickets.example.org',
};
const rows = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) => (await db.db.execute<T>(q)).rows;
const count = async (q: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(q))[0]!.n);

async function webhook(node: Node, sessionId: string) {
  const { payload, headers } = stripe.event('checkout.session.completed', sessionId);
  return fetch(`${node.base}/api/v4/payments/stripe/webhook`, { method: 'POST', headers, body: payload });
}

test('killed between the provider saying "paid" and the finalize: finalized once, one mail', { timeout: 180_000 }, async () => {
  const [a, b] = await Promise.all([startNode(env), startNode(env)]);
  nodes.push(a, b);
  const day = addDays(localDateOf(new Date(), 'Europe/Berlin'), 3);
  const created = await a.send('POST', '/api/v4/orders', {
    finalize: false,
    customer: { name: 'Erika', surname: 'Absturz', email: 'crash@example.org', locale: 'de' },
    items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity: 2, time: zonedInstant(day, 600, 'Europe/Berlin').toISOString() } }],
  }, bearer(user));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const orderId = created.body.order.id as number;
  const co = await a.send('POST', `/api/v4/orders/${orderId}/checkout`, { provider: 'stripe', return_url: 'https://shop.example.org/back' }, bearer(user));
  assert.equal(co.status, 201, JSON.stringify(co.body));
  const sessionId = co.body.payment.provider_ref as string;
  stripe.pay(sessionId);

  // Node a asks Stripe about the session; while the answer is held, a is killed.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const asked = new Promise<void>((resolve) => {
    stripe.beforeAnswer = async (method, p) => {
      if (method === 'GET' && p.includes(sessionId)) {
        resolve();
        await held;
      }
    };
  });
  const first = webhook(a, sessionId).catch((e: Error) => e);
  await asked;
  a.proc.kill('SIGKILL');
  assert.ok((await first) instanceof Error, 'node a died before it answered');
  stripe.beforeAnswer = null;
  release();
  assert.equal(await count(sql`select count(*)::int n from payments where order_id = ${orderId} and state = 'confirmed'`), 0, 'the kill landed before the payment was confirmed');
  assert.equal((await rows<{ status: string }>(sql`select status from orders where id = ${orderId}`))[0]!.status, 'pending');

  // Stripe retries on the other node; then again, on the restarted first one.
  assert.equal((await webhook(b, sessionId)).status, 200);
  const a2 = await startNode(env);
  nodes.push(a2);
  const again = await Promise.all([webhook(a2, sessionId), webhook(b, sessionId)]);
  assert.deepEqual(again.map((r) => r.status), [200, 200]);

  assert.equal((await rows<{ status: string }>(sql`select status from orders where id = ${orderId}`))[0]!.status, 'finalized');
  assert.equal(await count(sql`select count(*)::int n from payments where order_id = ${orderId} and state = 'confirmed'`), 1);
  for (const type of ['order.finalized', 'order.paid']) {
    assert.equal(await count(sql`select count(*)::int n from outbox_events where type = ${type} and subject_id = ${orderId}`), 1, type);
  }
  // The confirmation mail: written once by the dispatcher of either node, and sent.
  const t0 = Date.now();
  let mails: Array<{ status: string }> = [];
  while (Date.now() - t0 < 60_000) {
    mails = await rows<{ status: string }>(sql`select m.status from mail_messages m join outbox_events e on e.id = m.event_id where e.subject_id = ${orderId} and m.kind = 'order_confirmation'`);
    if (mails.length && mails.every((m) => m.status === 'sent')) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(mails.map((m) => m.status), ['sent'], 'one confirmation mail, sent');
});
