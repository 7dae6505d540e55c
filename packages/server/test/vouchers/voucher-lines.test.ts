// Single-purpose vouchers sold as order lines, end to end over the API with a real database and
// the real worker: a voucher sold carries its ticket's VAT and is redeemed in a later order; a
// promo code beside a voucher line discounts the ticket only; cancelling voids unused vouchers,
// refuses used ones, and gives back promo uses and redeemed vouchers. Gift cards as order lines:
// order-lines.test.ts.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { cancelOrder } from '../../src/domain/orders/cancelOrder.ts';
import { staffCtx } from '../reports/support.ts';
import { PDFTOTEXT_MISSING, hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';
import { codeOnPdf, linesWorld, type OrderJson } from './lines-support.ts';

const w = await linesWorld();
after(() => w.close());
const { t, c, post, get, order, issuedInvoice, ticketItem } = w;
const db = t.database.db;

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
