// Gift cards and vouchers in the shop without JavaScript: the offer page, the details, one
// pending order of its own, the demo payment, the confirmation linking the card's PDF through the
// order token, the PDF itself and the confirmation mail's attachment. Then the refusals: an
// amount outside the limits and a voucher quantity nobody typed write nothing.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { systemCtx } from '../../src/domain/context.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { mailDir, mailStem } from '../../src/notify/mail/files.ts';
import { sendMail, MAX_WAITS } from '../../src/notify/mail/sendMail.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';
import { payWithDemo, redirectOf, shopWorld, Visitor } from './support.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-shop-gc-'));
const w = await shopWorld({ env: { ATRIUM_DATA_DIR: dataDir } });
after(async () => {
  await w.t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const db = w.t.database.db;
const count = async (table: 'orders' | 'gift_cards' | 'customers') => Number((await db.execute<{ n: string }>(sql.raw(`select count(*) as n from ${table}`))).rows[0]!.n);

test('buy a 50 € gift card: page, details, demo payment, confirmation with its PDF, mail attachment', async (t) => {
  const v = new Visitor(w.t, { lang: 'de' });
  const home = await v.get('/shop');
  assert.match(home.body, /<a href="\/shop\/gift-cards">Geschenkgutscheine kaufen<\/a>/);
  const page = await v.get('/shop/gift-cards');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /eigenen Bestellung/);
  assert.match(page.body, /name="value" value="50.00" checked/);
  assert.match(page.body, new RegExp(`name="v_${w.regular}"`));
  const details = await v.post('/shop/gift-cards/details', { kind: 'gift_card', value: '50.00', quantity: 1, language: 'de', recipient: 'Grace <b>' });
  assert.equal(details.statusCode, 200, details.body);
  assert.match(details.body, /Wertgutschein über 50,00\s€/);
  // The recipient is carried escaped.
  assert.match(details.body, /value="Grace &lt;b&gt;"/);
  const key = /name="key" value="([^"]+)"/.exec(details.body)![1]!;
  const form = { key, kind: 'gift_card', value: '50.00', other: '', quantity: 1, language: 'de', recipient: 'Grace', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', consent: 'yes' };
  const placed = redirectOf(await v.post('/shop/gift-cards/checkout', form));
  assert.match(placed, /^\/shop\/orders\/[A-Za-z0-9_-]{22}$/);
  // The same details page sent twice (back button, double click) is one order.
  assert.equal(redirectOf(await v.post('/shop/gift-cards/checkout', form)), placed);
  const token = placed.split('/').pop()!;
  const row = (await db.execute<{ id: number; status: string; total_price_cents: number }>(sql`select id, status, total_price_cents from orders where token = ${token}`)).rows[0]!;
  assert.deepEqual([row.status, row.total_price_cents], ['pending', 5000]);
  assert.equal(Number((await db.execute<{ n: string }>(sql`select count(*) as n from gift_cards`)).rows[0]!.n), 0, 'no card before payment');

  const summary = await v.get(placed);
  assert.match(summary.body, /Wertgutschein über 50,00\s€/);
  assert.match(summary.body, /ohne MwSt\. \(Geschenkgutschein\)/, 'the card line carries no VAT rate');
  assert.match(summary.body, /Keine MwSt\.: Geschenkgutscheine sind nicht umsatzsteuerbar/);
  assert.doesNotMatch(summary.body, /MwSt\. 0 %/, 'no 0 % rate row');
  assert.doesNotMatch(summary.body, /id="gift-card"/, 'no field to pay a gift card with a gift card');
  assert.match(summary.body, /action="\/shop\/orders\/[^"]+\/pay"/, 'the providers are offered');
  // Sent anyway (an old tab, a hand-made form): refused with the shop's own note, nothing paid.
  const sent = await v.post(`${placed}/gift_card`, { code: 'ABCD-EFGH-JKMN-PQRS-TVWX' });
  assert.equal(sent.statusCode, 303);
  const done = await payWithDemo(v, w.t, placed);
  assert.match(done.body, /Vielen Dank/);
  const card = (await db.execute<{ id: number; code_last4: string; balance_cents: number; recipient: string }>(
    sql`select g.id, g.code_last4, g.balance_cents, g.recipient from gift_cards g join order_items i on i.id = g.order_item_id where i.order_id = ${row.id}`)).rows;
  assert.equal(card.length, 1);
  assert.deepEqual([card[0]!.balance_cents, card[0]!.recipient], [5000, 'Grace']);
  const href = `/shop/orders/${token}/gift-cards/${card[0]!.id}.pdf`;
  assert.ok(done.body.includes(`href="${href}"`), 'the confirmation links the card PDF');
  assert.match(done.body, new RegExp(`…${card[0]!.code_last4}`));
  assert.doesNotMatch(done.body, /calendar\.ics/, 'a gift card books no visit');

  const pdf = await v.get(href);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.equal(pdf.headers['cache-control'], 'no-store');
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  // Another order's token does not open it.
  assert.equal((await v.get(`/shop/orders/${'x'.repeat(22)}/gift-cards/${card[0]!.id}.pdf`)).statusCode, 404);
  if (!hasPdfToText) return t.diagnostic(PDFTOTEXT_MISSING);
  const text = squash(pdfPages(pdf.rawPayload)!.join('\n'));
  assert.match(text, /50,00 €/);
  assert.match(text, /Für Grace/);

  // The confirmation mail attaches the card's PDF (drawn by the domain when the mail is made).
  const ctx = systemCtx({ db, clock: w.t.clock, config: w.t.config });
  while ((await dispatchEvents(ctx)) > 0);
  const mail = (await db.execute<{ id: number }>(sql`
    select m.id from mail_messages m join outbox_events e on e.id = m.event_id where m.kind = 'order_confirmation' and e.subject_id = ${row.id}`)).rows[0]!;
  assert.equal(await sendMail(ctx, { mailId: mail.id, waits: MAX_WAITS }), 'sent');
  const parsed = await simpleParser(await readFile(path.join(mailDir(dataDir), `${mailStem(mail.id, 'order_confirmation')}.eml`)));
  const att = parsed.attachments.find((a) => a.filename === `gift-card-${card[0]!.code_last4}.pdf`);
  assert.ok(att, JSON.stringify(parsed.attachments.map((a) => a.filename)));
  assert.match(squash(pdfPages(att.content)!.join('\n')), /50,00 €/);
});

test('a free amount within the limits; vouchers per ticket; a bad amount is refused in words and writes nothing', async () => {
  const v = new Visitor(w.t, { lang: 'en' });
  const before = [await count('orders'), await count('customers')];
  for (const other of ['4,99', '500.01', 'abc', '']) {
    const bad = await v.post('/shop/gift-cards/details', { kind: 'gift_card', value: 'other', other, quantity: 1, language: 'en' });
    assert.equal(bad.statusCode, 422, other);
    assert.match(bad.body, /Please choose a value or enter an amount between €5.00 and €500.00\./);
    // What was typed stays on the form.
    if (other) assert.ok(bad.body.includes(`value="${other}"`));
  }
  // The last step re-checks the choice too: a tampered hidden field writes nothing either.
  const tampered = await v.post('/shop/gift-cards/checkout', { key: 'k'.repeat(20), kind: 'gift_card', value: '1000.00', quantity: 1, name: 'A', surname: 'B', email: 'a@example.org', consent: 'yes' });
  assert.equal(tampered.statusCode, 422);
  assert.match(tampered.body, /between €5.00 and €500.00/);
  const noVoucher = await v.post('/shop/gift-cards/details', { kind: 'voucher', [`v_${w.regular}`]: '0' });
  assert.equal(noVoucher.statusCode, 422);
  assert.match(noVoucher.body, /at least one ticket/);
  assert.deepEqual([await count('orders'), await count('customers')], before, 'nothing written');

  const free = await v.post('/shop/gift-cards/details', { kind: 'gift_card', value: 'other', other: '42,50', quantity: 2, language: 'en' });
  assert.equal(free.statusCode, 200, free.body);
  assert.match(free.body, /Gift card of €42.50/);
  assert.match(free.body, /€85.00/);

  const vouchers = await v.post('/shop/gift-cards/details', { kind: 'voucher', [`v_${w.regular}`]: '2', language: 'en' });
  assert.equal(vouchers.statusCode, 200, vouchers.body);
  assert.match(vouchers.body, /Voucher: Timed regular/);
  const key = /name="key" value="([^"]+)"/.exec(vouchers.body)![1]!;
  const placed = redirectOf(await v.post('/shop/gift-cards/checkout', { key, kind: 'voucher', [`v_${w.regular}`]: '2', language: 'en', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', consent: 'yes' }));
  const done = await payWithDemo(v, w.t, placed);
  const ids = [...done.body.matchAll(/href="\/shop\/orders\/[^/]+\/vouchers\/(\d+)\.pdf"/g)].map((m) => m[1]);
  assert.equal(ids.length, 2, done.body);
  const pdf = await v.get(`${placed}/vouchers/${ids[0]}.pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  const total = (await db.execute<{ t: number }>(sql`select total_price_cents as t from orders where token = ${placed.split('/').pop()}`)).rows[0]!.t;
  // The ticket's price (the factory's default), twice: priced by the order, not the form.
  const price = (await db.execute<{ p: number }>(sql`select price_cents as p from tickets where id = ${w.regular}`)).rows[0]!.p;
  assert.equal(total, 2 * price);
});
