// The box office's "sold" notice after a sale names each gift card and voucher the order sold by
// its last four characters and links its PDF through the order token, so the cashier can print
// the card at once. The orders here are placed through the API; the basket's own sale of them is
// test/desk/codes.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { signIn } from './support.ts';

let fx: ConsoleFixture;
before(async () => {
  fx = await consoleFixture();
});
after(() => fx.t.close());

test('the sold notice links the card and voucher PDFs by their last four characters', async () => {
  const place = async (items: unknown[]) => {
    const res = await fx.t.request({ method: 'POST', url: '/api/v4/orders', token: fx.user, payload: { items } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().order;
  };
  const cardOrder = await place([{ type: 'GiftCard', attributes: { amount_cents: 5000, language: 'de' } }]);
  const voucherOrder = await place([{ type: 'Voucher', attributes: { ticket_id: fx.A.ticketId, quantity: 1 } }]);
  const desk = await signIn(fx.t, fx.staff.admin);
  for (const [o, kind, path, words] of [[cardOrder, 'gift_cards', 'gift_cards', 'Print gift card'], [voucherOrder, 'vouchers', 'vouchers', 'Print admission voucher']] as const) {
    const id = Number(o.id);
    const code = o.items[0].attributes[kind][0];
    assert.ok(code, JSON.stringify(o.items[0]));
    const page = await desk.get(`/console/sale?done=${id}&lang=en`);
    assert.equal(page.statusCode, 200);
    const href = `/api/v4/orders/${id}/${path}/${code.id}.pdf?token=${encodeURIComponent(o.token)}`;
    assert.ok(page.body.includes(`href="${href}"`), page.body.slice(0, 3000));
    assert.ok(page.body.includes(`${words} …${code.code_last4} (PDF)`));
    const pdf = await fx.t.app.inject({ method: 'GET', url: href });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  }
});
