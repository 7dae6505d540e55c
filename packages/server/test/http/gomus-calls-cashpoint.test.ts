// The go~mus cash point API (cash_point_api.html: orders paid on the spot, the `only_my_orders`
// filter, event date bookings, tour bookings with their prices and feedback), called as its
// documentation shows. Atrium has no cash point token class: a box-office system uses a user
// token with the orders right, and records the money taken with POST /orders/:id/payments.
// Each test is named by its call, as docs/gomus-compatibility.md names it; the calls listed there
// as not supported are checked to be refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { catalogue, type Catalogue } from '../jobs/support.ts';

const t = await testApp();
after(() => t.close());
let c: Catalogue;
let desk = '';
let orderId = 0;
let total = 0;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: url.startsWith('/api/') ? url : `/api/v4${url}`, token: desk, ...(payload ? { payload } : {}) });

before(async () => {
  c = await catalogue(t.database.db);
  desk = await t.token({ class: 'user' });
});

describe('go~mus cash point API calls Atrium answers', () => {
  test('POST /orders', async () => {
    const price = (await call('GET', `/tickets/${c.ticketId}`)).json().ticket.price_cents as number;
    total = price * 2;
    const res = await call('POST', '/orders', {
      comment: 'Kasse 1', reference: 'walk-in',
      items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } }], total,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().order.is_valid, true);
    orderId = res.json().order.id;
    // Paid on the spot: the cash taken is recorded as a desk payment.
    const paid = await call('POST', `/orders/${orderId}/payments`, { payment: { provider: 'desk', amount_cents: total, method: 'cash' } });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.deepEqual([paid.json().payment.provider, paid.json().payment.amount_cents, paid.json().payment.state], ['desk', total, 'confirmed']);
  });

  test('GET /orders', async () => {
    const res = await call('GET', '/orders?only_my_orders=true');
    assert.equal(res.statusCode, 200, res.body);
    assert.ok('meta' in res.json());
    assert.ok(res.json().orders.some((o: { id: number }) => o.id === orderId));
  });
});

// The refusal each answers today. `/tours/bookings…` is read as `/tours/:id…` with the id
// "bookings" (404 NOT_FOUND for a read of it, 405 for other methods, ROUTE_INVALID below it).
const REFUSED: Array<{ call: string; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: () => string; payload?: object; status: number; code: string }> = [
  { call: 'GET /events/:event_id/dates/:date_id/bookings', method: 'GET', url: () => `/events/1/dates/${c.dateId}/bookings`, status: 404, code: 'ROUTE_INVALID' },
  { call: 'GET /tours/bookings', method: 'GET', url: () => '/tours/bookings?by_status_ids[]=20', status: 404, code: 'NOT_FOUND' },
  { call: 'GET /tours/bookings/:id', method: 'GET', url: () => '/tours/bookings/1', status: 404, code: 'ROUTE_INVALID' },
  { call: 'POST /tours/bookings/:booking_id/prices', method: 'POST', url: () => '/tours/bookings/1/prices', payload: { prices: [{ title: 'Audioguides', description: 'zusätzlich', amount: 3, price_cents: 500 }] }, status: 404, code: 'ROUTE_INVALID' },
  { call: 'PUT /tours/bookings/:booking_id/prices/:id', method: 'PUT', url: () => '/tours/bookings/1/prices/2', payload: { price: { title: 'Update', amount: 1, price_cents: 8000 } }, status: 404, code: 'ROUTE_INVALID' },
  { call: 'DELETE /tours/bookings/:booking_id/prices/:id', method: 'DELETE', url: () => '/tours/bookings/1/prices/2', status: 404, code: 'ROUTE_INVALID' },
  { call: 'GET /tours/bookings/:id/feedback', method: 'GET', url: () => '/tours/bookings/1/feedback', status: 404, code: 'ROUTE_INVALID' },
  { call: 'PUT /tours/bookings/:id/feedback', method: 'PUT', url: () => '/tours/bookings/1/feedback', payload: { feedback: { comment: 'toll', participants: '25', took_place: 'true' } }, status: 404, code: 'ROUTE_INVALID' },
  { call: 'DELETE /tours/bookings/:id/feedback', method: 'DELETE', url: () => '/tours/bookings/1/feedback', status: 404, code: 'ROUTE_INVALID' },
  // The pre-v4 cash point calls (go~mus API v3).
  { call: 'GET /api/v3/tickets', method: 'GET', url: () => '/api/v3/tickets', status: 404, code: 'ROUTE_INVALID' },
  { call: 'GET /api/v3/cash_point/capacities', method: 'GET', url: () => '/api/v3/cash_point/capacities?quota_id=1&date=2017-03-02', status: 404, code: 'ROUTE_INVALID' },
  { call: 'POST /api/v3/cash_point/orders', method: 'POST', url: () => '/api/v3/cash_point/orders', payload: { order_items_attributes: [{ quantity: 1, orderable_type: 'TicketSale', orderable_attributes: { ticket_id: 4, start_at: '2017-03-02 12:30' } }] }, status: 404, code: 'ROUTE_INVALID' },
];

describe('go~mus cash point API calls listed as not supported', () => {
  for (const r of REFUSED) {
    test(`not supported: ${r.call}`, async () => {
      const res = await call(r.method, r.url(), r.payload);
      assert.equal(res.statusCode, r.status, res.body);
      assert.equal(res.json().code, r.code);
    });
  }
});
