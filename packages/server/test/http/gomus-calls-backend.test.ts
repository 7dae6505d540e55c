// The newer go~mus calls documented on the gomus.de developer pages and in the interface
// specification (customers with `foreign_id`, requests, the two-phase order with finalize and
// cancellations, `POST /reservations`, document download) and the shop customer API, called as
// documented with a user token. Each test is named by its call, as docs/gomus-compatibility.md
// names it; the calls listed there as not supported are checked to be refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { catalogue, type Catalogue } from '../jobs/support.ts';

const t = await testApp();
after(() => t.close());
let c: Catalogue;
let user = '';
const ids = { customer: 0, order: 0, document: 0 };
let orderToken = '';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token: string | null = user) =>
  t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });

before(async () => {
  c = await catalogue(t.database.db);
  user = await t.token({ class: 'user' });
});

describe('newer go~mus calls Atrium answers', () => {
  test('POST /customers', async () => {
    const res = await call('POST', '/customers', { customer: { name: 'Anna', surname: 'Müller', email: 'anna@example.org', phone: '+49 30 1234567', foreign_id: 'crm-4711' } });
    assert.equal(res.statusCode, 201, res.body);
    ids.customer = res.json().customer.id;
    // go~mus's field list error for a blank e-mail and a short phone.
    const bad = await call('POST', '/customers', { customer: { name: 'A', surname: 'B', email: '', phone: '123' } });
    assert.equal(bad.statusCode, 422);
    assert.equal(typeof bad.json().error, 'string');
    assert.ok(Array.isArray(bad.json().errors));
  });

  test('GET /customers/:id', async () => {
    const res = await call('GET', `/customers/${ids.customer}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().customer.foreign_id, 'crm-4711');
  });

  test('PUT /customers/:id', async () => {
    const res = await call('PUT', `/customers/${ids.customer}`, { customer: { phone: '+49 30 99887766' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().customer.phone, '+49 30 99887766');
  });

  test('PUT /customers', async () => {
    const res = await call('PUT', '/customers', { customer: { foreign_id: 'crm-4711', surname: 'Schmidt' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().customer.id, res.json().customer.surname], [ids.customer, 'Schmidt']);
  });

  test('POST /reservations', async () => {
    const res = await call('POST', '/reservations', { reservation: { ticket_id: c.ticketId, quantity: 1, start_at: c.at(660) } });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(res.json().reservation.reservation_token);
  });

  test('POST /requests', async () => {
    const res = await call('POST', '/requests', {
      date: f.localDate(5), participants: 12,
      items: [{ tour_id: c.tourId, start_time: c.at(660), language_id: c.langId }],
      customer: { name: 'Anna', surname: 'Müller', email: 'anna@example.org' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok(res.json().request.id);
  });

  test('GET /requests', async () => {
    const res = await call('GET', '/requests');
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.json().requests.length >= 1);
  });

  test('POST /orders/:id/finalize', async () => {
    const draft = await call('POST', '/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } }] });
    assert.equal(draft.statusCode, 201, draft.body);
    assert.equal(draft.json().order.is_valid, false);
    ids.order = draft.json().order.id;
    // As go~mus clients send it: no body, a JSON content type.
    const res = await t.request({ method: 'POST', url: `/api/v4/orders/${ids.order}/finalize`, token: user, headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().order.is_valid, true);
    orderToken = res.json().order.token;
    ids.document = res.json().order.documents[0].id;
  });

  test('GET /documents/:id/download', async () => {
    // 202 while the document is rendered (no worker runs here), as the specification describes.
    const res = await call('GET', `/documents/${ids.document}/download`);
    assert.ok([200, 202].includes(res.statusCode), `${res.statusCode} ${res.body.slice(0, 200)}`);
    assert.equal((await call('GET', '/documents/99999999/download')).statusCode, 404);
  });

  test('POST /orders/:id/cancellations', async () => {
    // go~mus does not document the body; `{}` cancels the whole order (items: some of them).
    const res = await call('POST', `/orders/${ids.order}/cancellations`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().order.is_valid, false);
  });

  test('GET /orders/:token', async () => {
    const res = await call('GET', `/orders/${orderToken}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().order.id, ids.order);
  });
});

// The refusal each answers today.
const REFUSED: Array<{ call: string; method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object; status: number; code: string }> = [
  { call: 'GET /customers/salutations', method: 'GET', url: '/customers/salutations', status: 404, code: 'NOT_FOUND' },
  { call: 'GET /customers/titles', method: 'GET', url: '/customers/titles', status: 404, code: 'NOT_FOUND' },
  { call: 'POST /auth/sign_in', method: 'POST', url: '/auth/sign_in', payload: { email: 'anna@example.org', password: 'secret' }, status: 404, code: 'ROUTE_INVALID' },
  { call: 'PUT /auth', method: 'PUT', url: '/auth', payload: { newsletter_groups: '1,8' }, status: 404, code: 'ROUTE_INVALID' },
];

describe('newer go~mus calls listed as not supported', () => {
  for (const r of REFUSED) {
    test(`not supported: ${r.call}`, async () => {
      const res = await call(r.method, r.url, r.payload);
      assert.equal(res.statusCode, r.status, res.body);
      assert.equal(res.json().code, r.code);
    });
  }
});
