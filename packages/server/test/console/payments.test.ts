// The order's money in the console over HTTP as signed-in browsers: payments and refunds listed,
// a refund made through the form (audited with the staff user, CSRF-checked), amounts above what
// is refundable or malformed refused in words with nothing changed, roles without the right
// refused, and a refund Stripe refused shown with its retry button, retried to done. The Stripe
// SDK talks to the local stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { startStripeStandin, type StripeStandin } from '../../scripts/standins/stripe-standin.ts';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { failedRefund, paidOrder } from './payments.ts';
import { signIn, type Browser } from './support.ts';

let fx: ConsoleFixture;
let stripe: StripeStandin;
let manager: Browser;
before(async () => {
  stripe = await startStripeStandin();
  fx = await consoleFixture({ env: {
    ATRIUM_PAYMENT_PROVIDERS: 'desk,invoice,stripe',
    STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_BASE: stripe.base,
    ATRIUM_PUBLIC_URL: 'https://tickets.example.org',
  } });
  manager = await signIn(fx.t, fx.staff.manager);
});
after(async () => {
  await fx.t.close();
  await stripe.close();
});

const db = () => fx.t.database.db;
const count = async (table: 'refunds' | 'audit_log') => (await db().execute<{ n: number }>(sql.raw(`select count(*)::int n from ${table}`))).rows[0]!.n;
const money = async (id: number) => (await fx.t.request({ method: 'GET', url: `/api/v4/orders/${id}/payments`, token: fx.user })).json();
const userId = async (email: string) => (await db().execute<{ id: number }>(sql`select id from staff_users where email = ${email}`)).rows[0]!.id;

/** An order of museum A paid through Stripe Checkout (stand-in) and its webhook. */
async function paidByStripe(): Promise<{ id: number; sessionId: string }> {
  const res = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { items: [{ type: 'Ticket', attributes: { id: fx.A.ticketId, quantity: 1, time: fx.at(840) } }] } });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().order.id as number;
  const co = await fx.t.request({ method: 'POST', url: `/api/v4/orders/${id}/checkout`, token: fx.user, payload: { provider: 'stripe', return_url: 'https://shop.example.org/back' } });
  assert.equal(co.statusCode, 201, co.body);
  const sessionId = co.json().payment.provider_ref as string;
  stripe.pay(sessionId);
  const { payload, headers } = stripe.event('checkout.session.completed', sessionId);
  assert.equal((await fx.t.request({ method: 'POST', url: '/api/v4/payments/stripe/webhook', payload, headers })).statusCode, 200);
  return { id, sessionId };
}

describe('the order page', () => {
  test('lists payments and refunds with provider, state, amount, reference and time; reasons escaped', async () => {
    const { orderId } = await failedRefund(fx);
    await db().execute(sql`update refunds set reason = '<script>alert(1)</script>' where payment_id in (select id from payments where order_id = ${orderId})`);
    const res = await manager.get(`/console/orders/${orderId}`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    for (const s of ['Payments', 'Box office (cash)', 'confirmed', `desk-${orderId}`, 'Refunds', 'failed', 'The refund could not be processed.', 'Try again', 'Refund money']) {
      assert.ok(res.body.includes(s), `${s} missing`);
    }
    assert.ok(!res.body.includes('<script>alert(1)'), 'raw script tag in the page');
    assert.match(res.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    const viewer = await signIn(fx.t, fx.staff.viewer);
    const seen = await viewer.get(`/console/orders/${orderId}`);
    assert.ok(seen.body.includes(`desk-${orderId}`), 'a viewer sees the money');
    assert.ok(!seen.body.includes('Refund money') && !seen.body.includes('Try again'), 'but no refund form or retry');
  });

  test('in German', async () => {
    const { id } = await paidOrder(fx);
    const de = await signIn(fx.t, fx.staff.admin);
    await de.post('/console/locale', { locale: 'de', back: `/console/orders/${id}` });
    const res = await de.get(`/console/orders/${id}`);
    for (const s of ['Zahlungen', 'Kasse', 'bestätigt', 'Geld erstatten', 'Referenz des Anbieters']) assert.ok(res.body.includes(s), `${s} missing`);
  });
});

describe('the refund form', () => {
  test('a manager refunds part; the audit log names the staff user', async () => {
    const { id, totalCents } = await paidOrder(fx);
    const res = await manager.post(`/console/orders/${id}/refunds`, { amount: '1,50', reason: 'Kulanz' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    assert.equal(res.headers.location, `/console/orders/${id}?notice=refunded`);
    const m = await money(id);
    assert.deepEqual(m.refunds.map((r: { amount_cents: number; state: string; reason: string }) => [r.amount_cents, r.state, r.reason]), [[150, 'done', 'Kulanz']]);
    assert.deepEqual([m.payment_status, m.refunded_cents, m.paid_cents], ['partially_refunded', 150, totalCents]);
    const who = `staff:${await userId(fx.staff.manager)}`;
    assert.equal(m.refunds[0].created_by, who);
    const audit = await db().execute<{ action: string; actor: string }>(sql`select action, actor from audit_log where entity_type = 'refund' and entity_id = ${String(m.refunds[0].id)} order by id`);
    assert.deepEqual(audit.rows.map((a) => [a.action, a.actor]), [['refund.created', who], ['refund.done', who]]);
    const page = await manager.get(`/console/orders/${id}?notice=refunded`);
    assert.ok(page.body.includes('The money was refunded.'));
  });

  test('more than is refundable: a clear error, nothing changed', async () => {
    const { id, totalCents } = await paidOrder(fx);
    const [refunds, audits] = [await count('refunds'), await count('audit_log')];
    const over = ((totalCents + 1) / 100).toFixed(2);
    const res = await manager.post(`/console/orders/${id}/refunds`, { amount: over, reason: 'zu viel' });
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.match(res.body, /The refund was not made; nothing was changed\./);
    assert.ok(res.body.includes(`more than can still be refunded (€${(totalCents / 100).toFixed(2)})`), res.body.slice(0, 2000));
    assert.deepEqual([await count('refunds'), await count('audit_log')], [refunds, audits]);
    assert.equal((await money(id)).payment_status, 'paid');
  });

  test('malformed amounts and a missing reason are refused in words, nothing changed', async () => {
    const { id } = await paidOrder(fx);
    const refunds = await count('refunds');
    for (const [form, text] of [
      [{ amount: 'zwölf', reason: 'x' }, 'Please enter an amount above zero'],
      [{ amount: '0', reason: 'x' }, 'Please enter an amount above zero'],
      [{ amount: '-5', reason: 'x' }, 'Please enter an amount above zero'],
      [{ amount: '1.234', reason: 'x' }, 'Please enter an amount above zero'],
      [{ amount: '1', reason: '  ' }, 'Please give a reason.'],
    ] as const) {
      const res = await manager.post(`/console/orders/${id}/refunds`, form);
      assert.equal(res.statusCode, 422, JSON.stringify(form));
      assert.ok(res.body.includes(text), `${JSON.stringify(form)}: ${text}`);
    }
    assert.equal(await count('refunds'), refunds);
  });

  test('box office and viewers are refused; a form without its CSRF token too', async () => {
    const { id } = await paidOrder(fx);
    const audits = await count('audit_log');
    for (const role of ['box_office', 'viewer'] as const) {
      const b = await signIn(fx.t, fx.staff[role]);
      const res = await b.post(`/console/orders/${id}/refunds`, { amount: '1', reason: 'x' });
      assert.equal(res.statusCode, 403, role);
      assert.match(res.body, /Your role does not allow this action/);
    }
    const forged = await manager.post(`/console/orders/${id}/refunds`, { amount: '1', reason: 'x' }, { csrf: null });
    assert.equal(forged.statusCode, 403);
    assert.equal((await money(id)).refunds.length, 0);
    assert.equal(await count('audit_log'), audits);
  });
});

describe('a refund the provider refused', () => {
  test('shows as failed with a retry button; the retry sends it again and it is done', async () => {
    const { id, sessionId } = await paidByStripe();
    stripe.failRefunds = true;
    const res = await manager.post(`/console/orders/${id}/refunds`, { amount: '14', reason: 'Ausstellung geschlossen' });
    stripe.failRefunds = false;
    assert.equal(res.headers.location, `/console/orders/${id}?notice=refundfailed`);
    const page = await manager.get(`/console/orders/${id}?notice=refundfailed`);
    assert.ok(page.body.includes('The payment provider did not make the refund.'));
    assert.ok(page.body.includes(sessionId), "the Stripe session is the payment's reference");
    const refund = (await money(id)).refunds[0];
    assert.equal(refund.state, 'failed');
    assert.ok(page.body.includes(`/console/orders/${id}/refunds/${refund.id}/retry`), 'retry form');
    const retry = await manager.post(`/console/orders/${id}/refunds/${refund.id}/retry`, {});
    assert.equal(retry.headers.location, `/console/orders/${id}?notice=refunded`);
    const m = await money(id);
    assert.deepEqual([m.refunds[0].state, m.payment_status], ['done', 'refunded']);
    assert.match(m.refunds[0].provider_ref, /^re_/);
    const after = await manager.get(`/console/orders/${id}`);
    assert.ok(!after.body.includes('/retry"'), 'no retry once done');
    assert.ok(!after.body.includes('Refund money'), 'nothing left to refund: no form');
  });
});

describe('the reconciliation report', () => {
  test('per provider and day with totals, every entry with its reference, and the CSV', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(fx.t.clock.now());
    const before = (await manager.get(`/console/reports/payments?from=${day}&to=${day}`)).body;
    assert.ok(before.includes('Payment reconciliation'));
    const { id, totalCents } = await paidOrder(fx);
    await manager.post(`/console/orders/${id}/refunds`, { amount: '2', reason: 'Kulanz' });
    const res = await manager.get(`/console/reports/payments?from=${day}&to=${day}`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.ok(res.body.includes(`desk-${id}`), 'the payment reference is listed');
    assert.ok(res.body.includes(`href="/console/orders/${id}"`), 'with a link to its order');
    assert.ok(res.body.includes(`€${(totalCents / 100).toFixed(2)}`), 'its amount');
    assert.ok(res.body.includes('-€2.00'), 'the refund, negative');
    assert.match(res.body, /<tfoot>/);
    const csv = await manager.get(`/console/reports/payments.csv?from=${day}&to=${day}`);
    assert.equal(csv.statusCode, 200);
    assert.match(csv.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
    assert.match(csv.headers['content-disposition'] as string, new RegExp(`filename="payments-${day}-${day}.csv"`));
    const lines = csv.body.split('\r\n').filter((l) => l.includes(`"${id}"`));
    assert.deepEqual(lines.map((l) => l.split(';').slice(1, 3).concat(l.split(';')[7]!)), [
      ['"desk"', '"payment"', `"${(totalCents / 100).toFixed(2).replace('.', ',')}"`],
      ['"desk"', '"refund"', '"-2,00"'],
    ]);
    const bad = await manager.get(`/console/reports/payments?from=${day}&to=2020-01-01`);
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /to must not be before from/);
  });
});
