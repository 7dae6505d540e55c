// go~mus order semantics (docs/api-contract.md §7): an order posted as the go~mus reseller
// documentation shows it (no `finalize` key) is valid at once, with barcodes and documents;
// `"finalize": false` is the pending draft, finalized later.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const day = f.localDate(5);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin').toISOString();
let ticketId = 0, reseller = '';
type Order = { id: number; status: string; is_valid: boolean; finalized_at: string | null; items: Array<{ attributes: { barcodes?: unknown[] } }>; documents: unknown[] };
const post = (body: object) => t.request({ method: 'POST', url: '/api/v4/orders', token: reseller, payload: body });
const items = (quantity: number) => [{ type: 'Ticket', attributes: { id: ticketId, quantity, time: at(600) } }];

before(async () => {
  const m = await f.museum(db);
  const q = await f.quota(db, { museumId: m.id, capacity: 50 });
  ticketId = (await f.ticket(db, { museumId: m.id, quotaIds: [q.id], priceCents: 1400 })).id;
  reseller = await t.token({ class: 'reseller' });
});

test('an order without a finalize key, as go~mus documents it, is finalized with barcodes and documents', async () => {
  const res = await post({ comment: 'Please send fast!', reference: 'bought you by the awesome tourist gmbh!', items: items(2), total: 2800 });
  assert.equal(res.statusCode, 201, res.body);
  const o = res.json().order as Order;
  assert.equal(o.status, 'finalized');
  assert.equal(o.is_valid, true);
  assert.ok(o.finalized_at);
  assert.equal((o.items[0]!.attributes.barcodes ?? []).length, 2);
  assert.ok(o.documents.length > 0, 'documents are listed at once');
});

test('the go~mus wrapped form {"order": {...}} without finalize is finalized too', async () => {
  const res = await post({ order: { items: items(1) } });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal((res.json().order as Order).status, 'finalized');
});

test('"finalize": false gives the pending draft, which POST /orders/:id/finalize makes binding', async () => {
  const res = await post({ finalize: false, items: items(1) });
  assert.equal(res.statusCode, 201, res.body);
  const o = res.json().order as Order;
  assert.equal(o.status, 'pending');
  assert.equal(o.is_valid, false);
  assert.equal((o.items[0]!.attributes.barcodes ?? []).length, 0);
  const done = await t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/finalize`, token: reseller });
  assert.equal(done.statusCode, 200, done.body);
  assert.equal(done.json().order.status, 'finalized');
});

test('"finalize": true is unchanged', async () => {
  const res = await post({ finalize: true, items: items(1) });
  assert.equal((res.json().order as Order).status, 'finalized');
});
