// Shared setup of the payments tests: an app whose Stripe and Mollie SDKs talk to the local
// stand-ins (scripts/standins/, test/providers/), a museum with one time-slot ticket (14.00 EUR), and readers of the
// outbox and the audit log.
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { startMollieStandin, type MollieStandin } from '../providers/mollie-standin.ts';
import { startStripeStandin, type StripeStandin } from '../../scripts/standins/stripe-standin.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { Ctx } from '../../src/domain/context.ts';

export interface PaymentsWorld {
  t: TestApp;
  stripe: StripeStandin;
  mollie: MollieStandin;
  staff: string;
  reseller: string;
  ticketId: number;
  museumId: number;
  /** A slot start (ISO) `min` minutes after midnight of a day four days ahead. */
  at(min: number): string;
  /** Creates a pending order of `quantity` tickets at `min`; returns its id. */
  order(quantity?: number, min?: number): Promise<number>;
  post(url: string, body?: unknown, token?: string): ReturnType<TestApp['request']>;
  get(url: string, token?: string): ReturnType<TestApp['request']>;
  events(type: string, orderId?: number): Promise<Array<{ type: string; subject_id: number | null; data: Record<string, unknown> | null }>>;
  audit(entityType: string, id: number): Promise<Array<{ action: string; actor: string }>>;
  close(): Promise<void>;
}

export async function paymentsWorld(opts: { capacity?: number; testing?: Ctx['testing']; env?: Record<string, string> } = {}): Promise<PaymentsWorld> {
  // The Mollie SDK accepts no extra certificate authority, and the stand-in's certificate is
  // self-signed: this test process (which talks TLS to nothing else) does not check certificates.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const stripe = await startStripeStandin();
  const mollie = await startMollieStandin();
  const t = await testApp({
    env: {
      ATRIUM_PAYMENT_PROVIDERS: 'desk,invoice,stripe,mollie',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.base,
      MOLLIE_API_KEY: mollie.apiKey,
      MOLLIE_API_ENDPOINT: mollie.endpoint,
      ATRIUM_PUBLIC_URL: 'https://tickets.example.org',
      ...opts.env,
    },
    ...(opts.testing ? { testing: opts.testing } : {}),
  });
  const db = t.database.db;
  const museumId = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: opts.capacity ?? 50 });
  const ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id] })).id;
  const staff = await t.token({ class: 'user', rights: ['orders:write'] });
  const reseller = await t.token({ class: 'reseller' });
  const day = f.localDate(4);
  const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
  const post = (url: string, body: unknown = {}, token = staff) =>
    t.request({ method: 'POST', url: `/api/v4${url}`, token, ...(body === undefined ? {} : { payload: body as object }) });
  const get = (url: string, token = staff) => t.request({ method: 'GET', url: `/api/v4${url}`, token });
  return {
    t, stripe, mollie, staff, reseller, ticketId, museumId, at, post, get,
    async order(quantity = 1, min = 600) {
      const res = await post('/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at(min) } }] });
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json().order.id as number;
    },
    async events(type, orderId) {
      const r = await db.execute<{ type: string; subject_id: number | null; data: Record<string, unknown> | null }>(
        sql`select type, subject_id, data from outbox_events where type = ${type} order by seq`,
      );
      return orderId === undefined ? r.rows : r.rows.filter((e) => e.subject_id === orderId || (e.data as { order_id?: number } | null)?.order_id === orderId);
    },
    async audit(entityType, id) {
      const r = await db.execute<{ action: string; actor: string }>(sql`select action, actor from audit_log where entity_type = ${entityType} and entity_id = ${String(id)} order by id`);
      return r.rows;
    },
    async close() {
      await t.close();
      await stripe.close();
      await mollie.close();
    },
  };
}

/** Starts a Stripe checkout for the order; returns the payment id and the session id. */
export async function stripeCheckout(w: PaymentsWorld, orderId: number): Promise<{ paymentId: number; sessionId: string; redirect: string }> {
  const res = await w.post(`/orders/${orderId}/checkout`, { provider: 'stripe', return_url: 'https://shop.example.org/back' });
  if (res.statusCode !== 201) throw new Error(res.body);
  const b = res.json();
  return { paymentId: b.payment.id, sessionId: b.payment.provider_ref, redirect: b.redirect_url };
}

export async function stripeWebhook(w: PaymentsWorld, type: string, sessionId: string, secret?: string) {
  const { payload, headers } = w.stripe.event(type, sessionId, secret);
  return w.t.request({ method: 'POST', url: '/api/v4/payments/stripe/webhook', payload, headers });
}
