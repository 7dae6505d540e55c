// The second half of a go~mus shop client's session (docs/gomus-compatibility.md): the calendars
// it draws (ticket days, quota slots with depth=all, event dates), a tour's price list, the tag
// filters it loads, then reservation → order → finalize and the PDFs fetched by the links go~mus
// clients build from the order (`/orders/:id/tickets/:item.pdf?token=`, `/invoice.pdf?token=`),
// without the bearer header, as a buyer's browser would.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { documentStatus, testWorker, waitFor } from '../jobs/support.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const t = await testApp();
let worker: Worker | undefined;
after(async () => {
  await worker?.stop();
  await t.close();
});
const db = t.database.db;
const day = f.localDate(6);
const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin');

test('calendars, prices, tags, then order documents by their go~mus links', async () => {
  const museum = await f.museum(db);
  const quota = await f.quota(db, { museumId: museum.id, capacity: 20 });
  const ticket = await f.ticket(db, { museumId: museum.id, quotaIds: [quota.id], priceCents: 1400, firstEntry: 600, lastEntry: 630 });
  const event = await f.event(db, { museumId: museum.id });
  await f.eventDate(db, { eventId: event.id, startAt: at(840), seatsMax: 12 });
  const lang = await f.language(db);
  const tour = await f.tour(db, { museumId: museum.id, languageIds: [lang.id] });
  const token = await t.token({ class: 'reseller', museumIds: [museum.id] });
  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.request({ method, url: `/api/v4${url}`, token, headers, ...(payload ? { payload } : {}) });
  worker = await testWorker(t);

  // Calendars: which days have room, then the quota slots of the chosen day.
  const days = await call('GET', `/tickets/calendar?by_ticket_ids[]=${ticket.id}&start_at=${day}&end_at=${day}`);
  assert.deepEqual(days.json(), { data: { [day]: true } });
  const slots = (await call('GET', `/tickets/calendar?by_ticket_ids[]=${ticket.id}&start_at=${day}&end_at=${day}&depth=all`)).json().data[day];
  assert.equal(slots[0].quota.id, quota.id);
  assert.deepEqual(slots[0].quota.capacities.map((c: object) => Object.values(c)[0]), [20, 20]);
  const events = (await call('GET', `/calendar?start_at=${day}&end_at=${day}&depth=all`)).json().data[day];
  assert.equal(events[0].date.seats.available, 12);
  // Tour prices and the tag filters a shop loads once.
  const prices = (await call('GET', `/tours/${tour.id}/prices?date=${day}&participants=10&language_id=${lang.id}`)).json();
  assert.equal(prices.prices[0].price_cents, 9000);
  assert.deepEqual((await call('GET', '/events/age_groups')).json(), { age_groups: [] });

  // Reservation, order, finalize (a body-less POST with a JSON content type, as shops send it).
  const time = at(630).toISOString();
  const hold = await call('POST', '/tickets/reservations', { reservation: { ticket_id: ticket.id, quantity: 2, start_at: time } });
  assert.equal(hold.statusCode, 201, hold.body);
  const reservation = hold.json().reservation.token as string;
  const created = await call('POST', '/orders', { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket.id, quantity: 2, time, reservations: [reservation] } }], total: 2800 });
  assert.equal(created.statusCode, 201, created.body);
  const order = created.json().order;
  const fin = await call('POST', `/orders/${order.id}/finalize`, undefined, { 'content-type': 'application/json' });
  assert.equal(fin.statusCode, 200, fin.body);
  const done = fin.json().order;
  for (const d of done.documents) await waitFor(`document ${d.id}`, async () => (await documentStatus(db, d.id)) === 'available', 90_000);

  // The buyer's links: no Authorization header, only the order token.
  const item = done.items[0].attributes.id as number;
  for (const url of [`/orders/${done.id}/tickets/${item}.pdf?locale=de&token=${done.token}`, `/orders/${done.id}/invoice.pdf?token=${done.token}`]) {
    const pdf = await t.request({ method: 'GET', url: `/api/v4${url}` });
    assert.equal(pdf.statusCode, 200, `${url}: ${pdf.body}`);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  }
});
