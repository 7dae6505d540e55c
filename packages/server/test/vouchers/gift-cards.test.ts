// Gift cards over the API: issued with the code shown once and never stored, paying part or all
// of an order with a second payment for the rest, refunds going back onto the card (also for an
// order paid half by card and half through the Stripe stand-in), a card expiring between cart and
// payment, staff corrections, the public balance look-up and its rate limit. Every refusal
// changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { paymentsOfInvoice } from '../../src/domain/documents/invoicePayments.ts';
import { paymentsWorld, stripeCheckout, stripeWebhook, type PaymentsWorld } from '../payments/support.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';

let w: PaymentsWorld;
before(async () => {
  w = await paymentsWorld();
});
after(() => w.close());

async function issue(amount = 1000, extra: Record<string, unknown> = {}) {
  const r = await w.post('/gift_cards', { amount_cents: amount, ...extra });
  assert.equal(r.statusCode, 201, r.body);
  return r.json().gift_card as { id: number; code: string; balance_cents: number; expires_at: string; code_last4: string };
}
const card = async (id: number) => (await w.get(`/gift_cards/${id}`)).json();
const money = async (id: number) => (await w.get(`/orders/${id}/payments`)).json();
const payments = async () => Number((await w.t.database.db.execute<{ n: string }>(sql`select count(*) n from payments`)).rows[0]!.n);

describe('issue and read', () => {
  test('the code is shown once, is not in the database, and the default end is 31 Dec of year + 3', async () => {
    const c = await issue(2500, { recipient: 'Ada' });
    assert.match(c.code, /^[0-9A-Z]{20}$/);
    assert.equal(c.code_last4, c.code.slice(-4));
    const year = new Date().getUTCFullYear();
    assert.equal(new Date(c.expires_at).toISOString(), new Date(`${year + 3}-12-31T23:00:00Z`).toISOString());
    const got = await card(c.id);
    assert.equal(JSON.stringify(got).includes(c.code), false);
    assert.deepEqual(got.ledger.map((l: { kind: string; amount_cents: number }) => [l.kind, l.amount_cents]), [['issued', 2500]]);
    const rows = await w.t.database.db.execute(sql`select * from gift_cards`);
    assert.equal(JSON.stringify(rows.rows).includes(c.code), false);
    const audit = await w.t.database.db.execute(sql`select * from audit_log where entity_type = 'gift_card'`);
    assert.equal(JSON.stringify(audit.rows).includes(c.code), false);
    const found = await w.post('/gift_cards/lookup', { code: c.code.toLowerCase() });
    assert.equal(found.json().gift_card.id, c.id);
    assert.equal((await w.get(`/gift_cards?last4=${c.code_last4}`)).json().gift_cards.some((g: { id: number }) => g.id === c.id), true);
  });

  test('amounts outside the limits and callers without the right are refused', async () => {
    assert.equal((await w.post('/gift_cards', { amount_cents: 100 })).json().code, 'VALIDATION_FAILED');
    assert.equal((await w.post('/gift_cards', { amount_cents: 1000 }, w.reseller)).statusCode, 403);
  });
});

describe('paying', () => {
  test('a card pays part, the desk the rest; a refund goes back onto the card first', async () => {
    const c = await issue(1000);
    const id = await w.order(1); // 14.00
    const p = await w.post(`/orders/${id}/payments/gift_card`, { code: c.code });
    assert.equal(p.statusCode, 201, p.body);
    assert.deepEqual([p.json().payment.provider, p.json().payment.amount_cents], ['gift_card', 1000]);
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'pending');
    const desk = await w.post(`/orders/${id}/payments`, { provider: 'desk', amount_cents: 400, method: 'cash' });
    assert.equal(desk.statusCode, 201);
    assert.equal((await w.get(`/orders/${id}`)).json().order.status, 'finalized');
    assert.equal((await card(c.id)).gift_card.balance_cents, 0);
    // What the order's invoice will list: the card by its last four characters, then the desk.
    assert.deepEqual(await paymentsOfInvoice(w.t.database.db, id), [
      { provider: 'gift_card', amount_cents: 1000, card_last4: c.code_last4 }, { provider: 'desk', amount_cents: 400, card_last4: null },
    ]);
    // Nothing left on the card: a second order is refused and nothing is written.
    const other = await w.order(1, 630);
    const before = await payments();
    const empty = await w.post(`/orders/${other}/payments`, { provider: 'gift_card', code: c.code, amount_cents: 100 });
    assert.equal(empty.json().code, 'CODE_EXHAUSTED');
    assert.equal(await payments(), before);
    // A refund of the whole order: the desk payment (newest) and the card payment go back.
    const r = await w.post(`/orders/${id}/refunds`, { reason: 'visit cancelled' });
    assert.equal(r.statusCode, 201, r.body);
    assert.ok(r.json().refunds.every((x: { state: string }) => x.state === 'done'));
    const after = await card(c.id);
    assert.equal(after.gift_card.balance_cents, 1000);
    assert.deepEqual(after.ledger.map((l: { kind: string; amount_cents: number }) => [l.kind, l.amount_cents]), [['issued', 1000], ['redeemed', -1000], ['refunded', 1000]]);
  });

  test('an order paid half by card and half through Stripe is refunded to both', async () => {
    const c = await issue(700);
    const id = await w.order(1, 660);
    assert.equal((await w.post(`/orders/${id}/payments/gift_card`, { code: c.code })).statusCode, 201);
    const { sessionId } = await stripeCheckout(w, id);
    w.stripe.pay(sessionId);
    await stripeWebhook(w, 'checkout.session.completed', sessionId);
    const m = await money(id);
    assert.equal(m.payment_status, 'paid');
    assert.deepEqual(m.payments.map((p: { provider: string; amount_cents: number }) => [p.provider, p.amount_cents]), [['gift_card', 700], ['stripe', 700]]);
    const refundsBefore = w.stripe.refunds.length;
    const r = await w.post(`/orders/${id}/refunds`, { reason: 'closed for repairs' });
    assert.equal(r.statusCode, 201, r.body);
    assert.equal(w.stripe.refunds.length, refundsBefore + 1);
    assert.equal(w.stripe.refunds.at(-1)!.amount, 700);
    assert.equal((await card(c.id)).gift_card.balance_cents, 700);
    const m2 = await money(id);
    assert.deepEqual([m2.payment_status, m2.refunded_cents], ['refunded', 1400]);
  });

  test('a card that expires between cart and payment is refused and nothing changes', async () => {
    const c = await issue(2000);
    const id = await w.order(1, 690);
    // The card's end passes while the visitor fills the cart.
    await w.t.database.db.execute(sql`update gift_cards set expires_at = ${new Date(w.t.clock.now().getTime() - 1000).toISOString()}::timestamptz where id = ${c.id}`);
    const before = await payments();
    const r = await w.post(`/orders/${id}/payments/gift_card`, { code: c.code });
    assert.equal(r.json().code, 'CODE_EXPIRED');
    assert.equal(await payments(), before);
    assert.equal((await card(c.id)).gift_card.balance_cents, 2000);
    assert.equal((await card(c.id)).ledger.length, 1);
  });

  test('more than the balance, more than is due, or a mistyped code: refused, nothing changes', async () => {
    const c = await issue(500);
    const id = await w.order(1, 720);
    const before = await payments();
    assert.equal((await w.post(`/orders/${id}/payments/gift_card`, { code: c.code, amount_cents: 600 })).json().code, 'CODE_EXHAUSTED');
    assert.equal((await w.post(`/orders/${id}/payments/gift_card`, { code: c.code, amount_cents: 1500 })).json().code, 'PAYMENT_NOT_DUE');
    const typo = c.code.slice(0, 3) + (c.code[3] === 'A' ? 'B' : 'A') + c.code.slice(4);
    assert.equal((await w.post(`/orders/${id}/payments/gift_card`, { code: typo })).json().code, 'CODE_INVALID');
    assert.equal(await payments(), before);
    assert.equal((await card(c.id)).gift_card.balance_cents, 500);
  });
});

describe('staff corrections and the ledger', () => {
  test('a correction needs a reason and never takes the balance below zero', async () => {
    const c = await issue(1000);
    const ok = await w.post(`/gift_cards/${c.id}/corrections`, { amount_cents: -250, reason: 'damaged card replaced' });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().gift_card.balance_cents, 750);
    const below = await w.post(`/gift_cards/${c.id}/corrections`, { amount_cents: -751, reason: 'too much' });
    assert.equal(below.json().code, 'CODE_EXHAUSTED');
    assert.equal((await w.post(`/gift_cards/${c.id}/corrections`, { amount_cents: 10 })).statusCode, 422);
    const ledger = (await w.get(`/gift_cards/${c.id}/ledger`)).json().ledger;
    assert.deepEqual(ledger.map((l: { kind: string; balance_after_cents: number }) => [l.kind, l.balance_after_cents]), [['issued', 1000], ['corrected', 750]]);
    assert.equal(ledger[1].reason, 'damaged card replaced');
    assert.deepEqual((await w.audit('gift_card', c.id)).map((a) => a.action), ['gift_card.issued', 'gift_card.corrected']);
  });
});

describe('public balance look-up', () => {
  test('shows balance and end only; mistyped codes count against a per-address limit', async () => {
    const c = await issue(1200);
    const look = (code: string) => w.t.request({ method: 'GET', url: `/api/v4/gift_cards/balance?code=${encodeURIComponent(code)}`, remoteAddress: '10.9.8.7' });
    const first = await look(c.code);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(Object.keys(first.json()).sort(), ['balance_cents', 'currency', 'expired', 'expires_at']);
    assert.equal(first.json().balance_cents, 1200);
    const statuses: number[] = [];
    const typo = (i: number) => c.code.slice(0, i) + (c.code[i] === 'A' ? 'B' : 'A') + c.code.slice(i + 1);
    for (let i = 0; i < 14; i++) statuses.push((await look(typo(i))).statusCode);
    assert.ok(statuses.slice(0, 9).every((s) => s === 422), JSON.stringify(statuses));
    assert.ok(statuses.slice(9).every((s) => s === 429), JSON.stringify(statuses));
    // Even the right code is refused now, from this address.
    assert.equal((await look(c.code)).statusCode, 429);
  });
});

describe('reports', () => {
  test('outstanding value counts valid cards only; the ledger report sums and lists movements, as CSV too', async () => {
    const reports = await w.t.token({ class: 'user', rights: ['reports:read'] });
    const before = (await w.get('/reports/gift_cards/liability', reports)).json();
    const outstanding = (b: { rows: Array<{ currency: string; outstanding_cents: number }> }) => b.rows.find((r) => r.currency === 'EUR')?.outstanding_cents ?? 0;
    const c = await issue(3300);
    const gone = await issue(700);
    await w.t.database.db.execute(sql`update gift_cards set expires_at = ${new Date(w.t.clock.now().getTime() - 1000).toISOString()}::timestamptz where id = ${gone.id}`);
    const after = (await w.get('/reports/gift_cards/liability', reports)).json();
    assert.equal(outstanding(after) - outstanding(before), 3300 - 0, JSON.stringify(after));
    const from = new Date(w.t.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(w.t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const summary = (await w.get(`/reports/gift_cards/ledger?from=${from}&to=${to}`, reports)).json();
    assert.ok(summary.kinds.find((k: { kind: string }) => k.kind === 'issued').cents >= 4000, JSON.stringify(summary));
    const csv = await w.get(`/reports/gift_cards/ledger?from=${from}&to=${to}&format=csv`, reports);
    assert.equal(csv.statusCode, 200);
    assert.match(csv.headers['content-type'] as string, /text\/csv/);
    assert.ok(csv.body.includes(`"${c.code_last4}";"issued";"33,00"`), csv.body.slice(0, 500));
    assert.equal(csv.body.includes(c.code), false, 'the code is never in a report');
    assert.equal((await w.get('/reports/gift_cards/liability', w.reseller)).statusCode, 403);
  });
});

describe('the gift card PDF', () => {
  test('code, value and end in the card\'s language; staff who may issue only', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, async () => {
    for (const [language, words] of [['de', ['Geschenkgutschein', 'Für Ada', 'Wert', '50,00 €', 'Gültig bis']], ['en', ['Gift card', 'For Ada', 'Value', '€50.00', 'Valid until']]] as const) {
      const c = await issue(5000, { recipient: 'Ada', language, expires_on: '2030-06-30' });
      const r = await w.get(`/gift_cards/${c.id}/pdf`);
      assert.equal(r.statusCode, 200, r.body.slice(0, 300));
      assert.equal(r.headers['content-type'], 'application/pdf');
      const text = squash(pdfPages(r.rawPayload)!.join('\n'));
      for (const word of words) assert.ok(text.includes(word), `${language} ${word}: ${text}`);
      assert.ok(text.includes(c.code.replace(/(.{4})(?=.)/g, '$1-')), text);
      assert.ok(text.includes(language === 'de' ? '30. Juni 2030' : '30 June 2030'), text);
      // The code is shown once more, in this PDF, and never after: a second PDF is refused.
      const again = await w.get(`/gift_cards/${c.id}/pdf`);
      assert.equal(again.statusCode, 422, again.body);
      assert.equal(again.json().code, 'CODE_NOT_APPLICABLE');
      assert.ok(!again.body.includes(c.code) && !again.body.includes(c.code.slice(0, 8)), again.body);
    }
    const reader = await w.t.token({ class: 'user', rights: ['orders:read'] });
    assert.equal((await w.get('/gift_cards/1/pdf', reader)).statusCode, 403);
    assert.equal((await w.get('/gift_cards/999999/pdf')).statusCode, 404);
  });
});
