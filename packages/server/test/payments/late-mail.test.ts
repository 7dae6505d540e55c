// Late money refunded: the visitor is mailed once, in their language, saying how much went back
// and that no tickets were issued (a real SMTP server on 127.0.0.1; the outbox dispatch and the
// mail verb as the worker runs them). A refund made for another reason mails nothing of this kind.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { smtpStandIn } from '../helpers/smtp.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { sendMail } from '../../src/notify/mail/sendMail.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from './support.ts';

const smtp = await smtpStandIn();

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld({ capacity: 1, env: { SMTP_URL: smtp.url, ATRIUM_MAIL_FROM: 'Museum <tickets@museum.example>' } });
});
after(async () => {
  await w.close();
  await smtp.close();
});

/** Dispatches the outbox and sends every pending mail of `kind`, as the worker would. */
async function deliver(kind: string) {
  const ctx = systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
  while ((await dispatchEvents(ctx)) > 0);
  const rows = await w.t.database.db.execute<{ id: number }>(sql`select id from mail_messages where kind = ${kind} and status = 'pending' order by id`);
  for (const r of rows.rows) assert.equal(await sendMail(ctx, { mailId: r.id }), 'sent');
}

async function lateOrder(min: number, email: string, locale: string) {
  const res = await w.post('/orders', {
    finalize: false,
    customer: { name: 'Erika', surname: 'Spät', email, locale },
    items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(min) } }],
  });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().order.id as number;
  const { sessionId } = await stripeCheckout(w, id);
  w.t.clock.advanceMinutes(31); // expired; the place is sold to someone else
  const other = await w.post('/orders', { items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(min) } }], finalize: true });
  assert.equal(other.statusCode, 201, other.body);
  w.stripe.pay(sessionId);
  assert.equal((await stripeWebhook(w, 'checkout.session.completed', sessionId)).statusCode, 200);
  await stripeWebhook(w, 'checkout.session.completed', sessionId); // a repeated notification
  return id;
}


test('late money refunded: one mail to the visitor in German, with the amount', async () => {
  const id = await lateOrder(600, 'spaet@example.org', 'de');
  await deliver('payment_returned');
  await deliver('payment_returned');
  const mails = smtp.mailsTo('spaet@example.org');
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.subject, `Ihre Zahlung zur Buchung ${id} wurde erstattet`);
  assert.match(mails[0]!.text!, /Ihre Zahlung von 14,00\s€ zur Buchung Nr\. \d+ kam erst an/);
  assert.match(mails[0]!.text!, /Tickets wurden nicht ausgestellt/);
  assert.doesNotMatch(mails[0]!.text!, /Gesamt/);
});

test('in English for an English visitor', async () => {
  await lateOrder(660, 'late@example.org', 'en');
  await deliver('payment_returned');
  const mails = smtp.mailsTo('late@example.org');
  assert.equal(mails.length, 1);
  assert.match(mails[0]!.subject!, /^Your payment for booking \d+ has been refunded$/);
  assert.match(mails[0]!.text!, /your payment of €14\.00 for booking no\. \d+ arrived after the reservation had expired/);
});

test('a refund staff make mails nothing of this kind', async () => {
  const res = await w.post('/orders', {
    finalize: false,
    customer: { name: 'Max', surname: 'Puenktlich', email: 'ontime@example.org', locale: 'en' },
    items: [{ type: 'Ticket', attributes: { id: w.ticketId, quantity: 1, time: w.at(720) } }],
  });
  const id = res.json().order.id as number;
  const { sessionId } = await stripeCheckout(w, id);
  w.stripe.pay(sessionId);
  await stripeWebhook(w, 'checkout.session.completed', sessionId);
  assert.equal((await w.post(`/orders/${id}/refunds`, { amount_cents: 100, reason: 'goodwill' })).statusCode, 201);
  const ctx = systemCtx({ db: w.t.database.db, clock: w.t.clock, config: w.t.config });
  while ((await dispatchEvents(ctx)) > 0);
  const kinds = await w.t.database.db.execute<{ kind: string }>(sql`select kind from mail_messages where recipient = 'ontime@example.org'`);
  assert.ok(!kinds.rows.some((k) => k.kind === 'payment_returned'), JSON.stringify(kinds.rows));
});
