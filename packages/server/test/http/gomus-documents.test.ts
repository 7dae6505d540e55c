// go~mus document links (docs/gomus-compatibility.md): /orders/:id/tickets/:item.pdf?token=,
// /events/:item.pdf, /tours/:item.pdf and /orders/:id/invoice.pdf, authorized by the order token
// alone. A wrong token, another order's item, a non-numeric id and a missing token never give a
// file, and the token never appears in an answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { catalogue, documentStatus, finalizedOrder, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const t = await testApp();
let worker: Worker;
after(async () => {
  await worker?.stop();
  await t.close();
});
let c: Catalogue, reseller: string;
let order: Awaited<ReturnType<typeof finalizedOrder>> & { items?: Array<{ id: number; type: string }> };
let other: Awaited<ReturnType<typeof finalizedOrder>>;

const get = (url: string, token?: string) => t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });

before(async () => {
  c = await catalogue(t.database.db);
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t);
  order = await finalizedOrder(t, reseller, c, [
    { type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } },
    { type: 'Tour', attributes: { id: c.tourId, quantity: 5, start_time: c.at(600), language_id: c.langId } },
  ]);
  other = await finalizedOrder(t, reseller, c);
  order.items = (await get(`/orders/${order.id}`, reseller)).json().order.items;
  for (const d of [...order.documents, ...other.documents]) {
    // Rendering runs on the in-process worker; the shared machine can be slow.
    await waitFor(`document ${d.id} available`, async () => (await documentStatus(t.database.db, d.id)) === 'available', 90_000);
  }
});

const itemOf = (type: string) => order.items!.find((i) => i.type === type)!.id;

describe('go~mus document links', () => {
  test('the ticket, confirmation and invoice PDFs answer to the order token without a bearer header', async () => {
    for (const url of [
      `/orders/${order.id}/tickets/${itemOf('Ticket')}.pdf?token=${order.token}&locale=de`,
      `/orders/${order.id}/tours/${itemOf('Tour')}.pdf?token=${order.token}`,
      `/orders/${order.id}/invoice.pdf?token=${order.token}`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
    }
  });

  test('the link serves the same bytes as the documents download', async () => {
    const ticketDoc = order.documents.find((d) => d.kind === 'ticket')!;
    const a = await get(`/orders/${order.id}/tickets/${itemOf('Ticket')}.pdf?token=${order.token}`);
    const b = await get(`/documents/${ticketDoc.id}/download`, reseller);
    assert.equal(b.statusCode, 200);
    assert.ok(a.rawPayload.equals(b.rawPayload));
  });

  test('a wrong token, another order\'s token or item, or the wrong item type is a 404 that says nothing', async () => {
    const ticketItem = itemOf('Ticket');
    const wrong = `${order.token.slice(0, -1)}${order.token.endsWith('A') ? 'B' : 'A'}`;
    for (const url of [
      `/orders/${order.id}/tickets/${ticketItem}.pdf?token=${wrong}`,
      `/orders/${order.id}/tickets/${ticketItem}.pdf?token=${other.token}`,
      `/orders/${other.id}/tickets/${ticketItem}.pdf?token=${other.token}`,
      `/orders/${order.id}/tours/${ticketItem}.pdf?token=${order.token}`,
      `/orders/${order.id}/events/${ticketItem}.pdf?token=${order.token}`,
      `/orders/${order.id}/invoice.pdf?token=${other.token}`,
      `/orders/abc/invoice.pdf?token=${order.token}`,
      `/orders/999999/invoice.pdf?token=${order.token}`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'NOT_FOUND');
      assert.ok(!res.body.includes(order.token) && !res.body.includes(other.token), 'the answer echoes no token');
    }
  });

  test('without a token the link is a 422 naming it; a bad bearer token is still a 401', async () => {
    const res = await get(`/orders/${order.id}/invoice.pdf`);
    assert.equal(res.statusCode, 422, res.body);
    assert.match(`${res.json().error} ${(res.json().errors ?? []).join(' ')}`, /token/);
    const bad = await get(`/orders/${order.id}/invoice.pdf?token=${order.token}`, 'atr_nope_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
    assert.equal(bad.statusCode, 401);
  });

  test('a pending order has no documents yet: 404', async () => {
    const res = await t.request({
      method: 'POST', url: '/api/v4/orders', token: reseller,
      payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const o = res.json().order;
    const pdf = await get(`/orders/${o.id}/invoice.pdf?token=${o.token}`);
    assert.equal(pdf.statusCode, 404, pdf.body);
  });
});
