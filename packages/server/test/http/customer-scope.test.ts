// Museum scope of personal data (ADR 0015): every endpoint that returns or
// changes data about a person is walked with a staff token of another museum and with another
// reseller's token: 404 or empty everywhere. The same calls with the owner and with staff of the
// order's museum succeed, so the walk proves the rule rather than a broken fixture.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { localDate } from '../helpers/factories.ts';
import { catalogue, pngBytes, type Catalogue } from '../jobs/support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;

let c: Catalogue;
let owner: string, staffA: string, staffB: string, otherReseller: string, staffAWriter: string;
let order: { id: number; token: string };
let customerId: number, requestId: number, scopedCustomerId: number, barcode: string, attachmentId: number;
const person = { foreign_id: 'scope-1', name: 'Erika', surname: 'Mustermann', email: 'erika@example.org', phone: '+49 30 555' };

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api/v4${url}`, token, ...(payload ? { payload } : {}) });

before(async () => {
  c = await catalogue(db);
  owner = await t.token({ class: 'reseller' });
  otherReseller = await t.token({ class: 'reseller' });
  staffA = await t.token({ class: 'user', museumIds: [c.museumId] });
  staffB = await t.token({ class: 'user', museumIds: [c.otherMuseumId] });
  staffAWriter = await t.token({ class: 'user', museumIds: [c.museumId], rights: ['customers:write'] });

  const res = await call('POST', '/orders', owner, {
    finalize: true,
    customer: person,
    items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }],
  });
  assert.equal(res.statusCode, 201, res.body);
  order = res.json().order;
  customerId = res.json().order.customer_id;
  barcode = res.json().order.items[0].attributes.barcodes[0].barcode;
  const reqRes = await call('POST', '/requests', owner, {
    date: localDate(5),
    participants: 10,
    items: [{ tour_id: c.tourId, start_time: c.at(660), language_id: c.langId }],
    customer_id: customerId,
    contact: { name: 'Max', surname: 'Mustermann', email: 'max@example.org' },
  });
  assert.equal(reqRes.statusCode, 201, reqRes.body);
  requestId = reqRes.json().request.id;
  const up = await call('POST', '/documents', owner, {
    order_id: order.id,
    filename: 'pass.png',
    content_type: 'image/png',
    content_base64: pngBytes().toString('base64'),
  });
  assert.equal(up.statusCode, 202, up.body);
  attachmentId = up.json().document.id;
  // A customer that staff of museum A created themselves, with no order yet.
  const own = await call('POST', '/customers', staffAWriter, { name: 'Kim', surname: 'Lee', email: 'kim@example.org', foreign_id: 'scope-2' });
  assert.equal(own.statusCode, 201, own.body);
  scopedCustomerId = own.json().customer.id;
});

/** Every endpoint that returns or changes personal data, with how "nothing" looks for it. */
function walk(): Array<{ name: string; run: (token: string) => Promise<{ statusCode: number; body: string; json(): any }>; hidden: (r: any) => boolean }> {
  const notFound = (r: any) => r.statusCode === 404;
  const listWithout = (key: string, id: number) => (r: any) => r.statusCode === 200 && !r.json()[key].some((x: { id: number }) => x.id === id);
  return [
    { name: 'GET /customers', run: (tk) => call('GET', '/customers?per_page=100', tk), hidden: listWithout('customers', customerId) },
    { name: 'GET /customers?email', run: (tk) => call('GET', '/customers?email=erika@example.org', tk), hidden: (r) => r.statusCode === 200 && r.json().meta.total_count === 0 },
    { name: 'GET /customers?foreign_id', run: (tk) => call('GET', '/customers?foreign_id=scope-1', tk), hidden: (r) => r.statusCode === 200 && r.json().meta.total_count === 0 },
    { name: 'GET /customers/:id', run: (tk) => call('GET', `/customers/${customerId}`, tk), hidden: notFound },
    { name: 'GET /customers/:foreign_id', run: (tk) => call('GET', '/customers/scope-1', tk), hidden: notFound },
    { name: 'PUT /customers/:id', run: (tk) => call('PUT', `/customers/${customerId}`, tk, { city: 'Hacked' }), hidden: notFound },
    { name: 'PUT /customers/:foreign_id', run: (tk) => call('PUT', '/customers/scope-1', tk, { city: 'Hacked' }), hidden: notFound },
    { name: 'PUT /customers (foreign_id in body)', run: (tk) => call('PUT', '/customers', tk, { foreign_id: 'scope-1', city: 'Hacked' }), hidden: notFound },
    // Staff only (a reseller's 403 reveals nothing either).
    { name: 'GET /customers/:id/export', run: (tk) => call('GET', `/customers/${customerId}/export`, tk), hidden: (r) => r.statusCode === 404 || r.statusCode === 403 },
    { name: 'POST /customers/:id/erase', run: (tk) => call('POST', `/customers/${customerId}/erase`, tk), hidden: (r) => r.statusCode === 404 || r.statusCode === 403 },
    { name: 'GET /orders', run: (tk) => call('GET', '/orders?per_page=100', tk), hidden: listWithout('orders', order.id) },
    { name: 'GET /orders/:id', run: (tk) => call('GET', `/orders/${order.id}`, tk), hidden: notFound },
    { name: 'GET /orders/:token', run: (tk) => call('GET', `/orders/${order.token}`, tk), hidden: notFound },
    { name: 'GET /orders/barcode/:code', run: (tk) => call('GET', `/orders/barcode/${barcode}`, tk), hidden: notFound },
    { name: 'PUT /orders/:id', run: (tk) => call('PUT', `/orders/${order.id}`, tk, { comment: 'x' }), hidden: notFound },
    { name: 'GET /requests', run: (tk) => call('GET', '/requests?per_page=100', tk), hidden: listWithout('requests', requestId) },
    { name: 'GET /requests/:id', run: (tk) => call('GET', `/requests/${requestId}`, tk), hidden: notFound },
    { name: 'GET /documents', run: (tk) => call('GET', '/documents?per_page=100', tk), hidden: listWithout('documents', attachmentId) },
    { name: 'GET /documents/:id', run: (tk) => call('GET', `/documents/${attachmentId}`, tk), hidden: notFound },
    { name: 'GET /documents/:id/download', run: (tk) => call('GET', `/documents/${attachmentId}/download`, tk), hidden: notFound },
  ];
}

describe('personal data is invisible outside the caller scope', () => {
  for (const [who, token] of [
    ['staff of another museum', () => staffB],
    ['another reseller', () => otherReseller],
  ] as const) {
    test(`${who}: 404 or empty on every endpoint`, async () => {
      for (const step of walk()) {
        const res = await step.run(token());
        assert.ok(step.hidden(res), `${who} ${step.name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
      const [row] = (await db.execute<{ city: string | null }>(sql`select city from customers where id = ${customerId}`)).rows;
      assert.equal(row!.city, null, 'nothing was changed');
    });
  }

  test('control: the owner and staff of the order museum reach every endpoint', async () => {
    for (const token of [owner, staffA]) {
      const staffOnly = (name: string) => name.includes('/export') && token === owner;
      for (const step of walk().filter((s) => !s.name.startsWith('PUT') && !s.name.includes('/erase') && !staffOnly(s.name))) {
        const res = await step.run(token);
        assert.ok(!step.hidden(res) && res.statusCode < 500, `${step.name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }
  });

  test('a customer created within a museum scope: its staff see it, staff of other museums and resellers do not', async () => {
    assert.equal((await call('GET', `/customers/${scopedCustomerId}`, staffA)).statusCode, 200);
    assert.equal((await call('GET', '/customers/scope-2', staffA)).statusCode, 200);
    for (const token of [staffB, otherReseller, owner]) {
      assert.equal((await call('GET', `/customers/${scopedCustomerId}`, token)).statusCode, 404);
    }
    const list = (await call('GET', '/customers?per_page=100', staffA)).json().customers.map((x: { id: number }) => x.id);
    assert.deepEqual(list, [customerId, scopedCustomerId].sort((a, b) => a - b));
  });

  test('a user token without a museum scope still sees everybody', async () => {
    const unscoped = await t.token({ class: 'user' });
    assert.equal((await call('GET', `/customers/${customerId}`, unscoped)).statusCode, 200, '');
  });
});
