// GDPR export and erasure (ADR 0015): the export holds everything stored
// about a person; after the erasure no table holds any of the person's data except the invoices
// tax law requires, which the answer names. Both are staff actions within the museum scope, and
// the command line runs the same verbs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { localDate } from '../helpers/factories.ts';
import { catalogue, pngBytes, type Catalogue } from '../jobs/support.ts';
import { runCli } from '../cli/cli.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;

const PERSON = { foreign_id: 'crm-4711', salutation: 'Frau', name: 'Erika', surname: 'Mustermann', email: 'erika.mustermann@example.org', phone: '+49 30 9876543', street: 'Heidestraße 17', zip: '51147', city: 'Köln', country: 'DE' };
const CONTACT = { name: 'Gisela', surname: 'Lehrerin', email: 'gisela.lehrerin@example.org', phone: '+49 221 555', role: 'teacher' };
const ATTENDEE = { name: 'Jonas', surname: 'Schüler' };
/** Strings that must be gone from the whole database after the erasure. */
const TRACES = ['Erika', 'Mustermann', 'erika.mustermann', '9876543', 'Heidestraße', '51147', 'Köln', 'crm-4711', 'Gisela', 'Lehrerin', 'gisela.lehrerin', 'Jonas', 'Schüler', 'Allergie', 'ausweis-erika'];

let c: Catalogue, reseller: string, staff: string, reader: string, otherMuseum: string, noRight: string;
let customerId: number, orderId: number, requestId: number, uploadId: number;

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object, headers: Record<string, string> = {}) =>
  t.request({ method, url: `/api/v4${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}), headers });

before(async () => {
  c = await catalogue(db);
  await db.execute(sql`update tickets set attendees = 'required', max_persons = 5 where id = ${c.ticketId}`);
  reseller = await t.token({ class: 'reseller' });
  staff = await t.token({ class: 'user', rights: ['customers:write'] });
  reader = await t.token({ class: 'user', rights: ['customers:read'], museumIds: [c.museumId] });
  otherMuseum = await t.token({ class: 'user', museumIds: [c.otherMuseumId] });
  noRight = await t.token({ class: 'user', rights: ['orders:read'] });

  const order = await call('POST', '/orders', reseller, {
    finalize: true,
    comment: 'Allergie gegen Nüsse',
    customer: PERSON,
    items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630), attendees: [ATTENDEE] } }],
  }, { 'idempotency-key': 'gdpr-order-1' });
  assert.equal(order.statusCode, 201, order.body);
  orderId = order.json().order.id;
  customerId = order.json().order.customer_id;
  const request = await call('POST', '/requests', reseller, {
    date: localDate(5), participants: 12, notes: 'Erika bringt die Allergie-Liste',
    items: [{ tour_id: c.tourId, start_time: c.at(660), language_id: c.langId }],
    customer_id: customerId, contact: CONTACT,
  });
  assert.equal(request.statusCode, 201, request.body);
  requestId = request.json().request.id;
  const up = await call('POST', '/documents', reseller, { order_id: orderId, filename: 'ausweis-erika.png', content_type: 'image/png', content_base64: pngBytes().toString('base64') });
  assert.equal(up.statusCode, 202, up.body);
  uploadId = up.json().document.id;
  // A generated PDF with bytes, to see the bytes go (no worker runs in this file).
  await db.execute(sql`update documents set content = ${Buffer.from('%PDF ticket of Erika Mustermann')}, status = 'available' where order_id = ${orderId} and kind = 'ticket'`);
  // What the dispatcher would have stored: the rendered order on its event, and a mail to the person.
  const ev = (await db.execute<{ id: string }>(sql`select id from outbox_events where subject_type = 'order' and subject_id = ${orderId} limit 1`)).rows[0]!;
  await db.execute(sql`update outbox_events set data = ${JSON.stringify({ order: { id: orderId, comment: 'Allergie gegen Nüsse', customer_id: customerId } })}::jsonb, dispatch_pending = false where id = ${ev.id}`);
  await db.execute(sql`insert into mail_messages (event_id, kind, recipient, locale, created_at) values (${ev.id}, 'order_confirmation', ${PERSON.email}, 'de', now())`);
});

/** Every row of every table of the application, as text, that contains one of the traces. */
async function traces(list: string[] = TRACES): Promise<string[]> {
  // `invoices` holds what issued invoices print: kept by law, and named in the erasure's answer.
  const tables = (await db.execute<{ t: string }>(sql`select table_name t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'invoices'`)).rows.map((r) => r.t);
  const found: string[] = [];
  for (const table of tables) {
    for (const trace of list) {
      const r = await db.execute<{ n: number }>(sql`select count(*)::int n from ${sql.identifier(table)} x where strpos(x::text, ${trace}) > 0`);
      if (r.rows[0]!.n > 0) found.push(`${table}: ${trace}`);
    }
  }
  // The bytes of documents are bytea: look inside them too.
  for (const trace of list) {
    const r = await db.execute<{ kinds: string | null }>(sql`select string_agg(kind, ',') kinds from documents where kind not in ('invoice', 'credit_note', 'e_invoice') and position(convert_to(${trace}, 'UTF8') in coalesce(content, ''::bytea)) > 0`);
    if (r.rows[0]!.kinds) found.push(`documents.content (${r.rows[0]!.kinds}): ${trace}`);
  }
  return found;
}

describe('who may export and erase', () => {
  test('anonymous 401, resellers and staff without the right 403, staff of another museum 404', async () => {
    for (const [method, url] of [['GET', `/customers/${customerId}/export`], ['POST', `/customers/${customerId}/erase`]] as const) {
      assert.equal((await call(method, url)).statusCode, 401, url);
      assert.equal((await call(method, url, reseller)).statusCode, 403, url);
      assert.equal((await call(method, url, noRight)).statusCode, 403, url);
      assert.equal((await call(method, url, otherMuseum)).statusCode, 404, url);
      assert.equal((await call(method, `/customers/999999/${url.split('/').pop()}`, staff)).statusCode, 404, url);
    }
    assert.equal((await call('POST', `/customers/${customerId}/erase`, reader)).statusCode, 403, 'customers:read may export, not erase');
  });
});

describe('export', () => {
  test('holds the customer, orders with attendees, requests with contacts and document metadata', async () => {
    for (const [token, ref] of [[staff, String(customerId)], [reader, 'crm-4711']] as const) {
      const res = await call('GET', `/customers/${ref}/export`, token);
      assert.equal(res.statusCode, 200, res.body);
      const e = res.json().export;
      assert.equal(e.complete, true);
      assert.equal(e.erasure, null);
      assert.equal(e.customer.email, PERSON.email);
      assert.equal(e.customer.street, PERSON.street);
      assert.deepEqual(e.orders.map((o: { id: number }) => o.id), [orderId]);
      assert.equal(e.orders[0].comment, 'Allergie gegen Nüsse');
      assert.deepEqual(e.orders[0].items[0].attendees, [ATTENDEE]);
      assert.deepEqual(e.attendees, [{ order_id: orderId, item_id: e.orders[0].items[0].id, ...ATTENDEE }]);
      assert.deepEqual(e.requests.map((r: { id: number }) => r.id), [requestId]);
      assert.deepEqual(e.contacts, [{ request_id: requestId, ...CONTACT }]);
      const kinds = e.documents.map((d: { kind: string }) => d.kind).sort();
      assert.deepEqual(kinds, ['attachment', 'invoice', 'ticket']);
      assert.equal(e.documents.find((d: { id: number }) => d.id === uploadId).filename, 'ausweis-erika.png');
      assert.ok(!('content' in e.documents[0]), 'metadata only');
    }
  });
});

describe('erase', () => {
  test('anonymises the person in every table; invoices are kept and named; a repeat answers the first erasure', async () => {
    assert.ok((await traces()).length > 0, 'control: the traces are found before the erasure');
    const invoiceBefore = (await db.execute<{ id: number; status: string }>(sql`select id, status from documents where order_id = ${orderId} and kind = 'invoice'`)).rows[0]!;

    const res = await call('POST', `/customers/${customerId}/erase`, staff);
    assert.equal(res.statusCode, 200, res.body);
    const e = res.json().erasure;
    assert.equal(e.customer_id, customerId);
    assert.equal(e.already_erased, false);
    assert.deepEqual(e.anonymised, {
      customer: 1, order_comments: 1, attendees: 1, request_contacts: 1, request_notes: 1,
      documents_wiped: 2, idempotency_records: 1, invoices_retained: 1, outbox_events: 1, mails: 1,
    });
    const invoices = e.retained.find((r: { what: string }) => r.what === 'invoices and credit notes');
    assert.deepEqual(invoices.ids, [invoiceBefore.id]);
    assert.match(invoices.reason, /§147 AO/);
    assert.match(e.logs, /never logged/);

    assert.deepEqual(await traces(), []);
    const invoiceAfter = (await db.execute<{ status: string }>(sql`select status from documents where id = ${invoiceBefore.id}`)).rows[0]!;
    assert.equal(invoiceAfter.status, invoiceBefore.status, 'the invoice is kept unchanged');
    const dl = await call('GET', `/documents/${uploadId}/download`, reseller);
    assert.equal(dl.statusCode, 410, 'the upload is gone');

    const again = await call('POST', `/customers/${customerId}/erase`, staff);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().erasure.already_erased, true);
    assert.equal(again.json().erasure.erased_at, e.erased_at);
    assert.deepEqual(again.json().erasure.anonymised, e.anonymised);

    const exp = (await call('GET', `/customers/${customerId}/export`, staff)).json().export;
    assert.equal(exp.erasure.erased_at, e.erased_at);
    assert.equal(exp.customer.name, 'Erased');
    assert.equal(exp.customer.email, `erased-${customerId}@erased.invalid`);
    assert.deepEqual(exp.contacts, []);
    // The order still stands for bookkeeping and admission.
    assert.equal((await call('GET', `/orders/${orderId}`, reseller)).json().order.status, 'finalized');
  });
});

describe('erase clears every free text', () => {
  test("order reference and foreign_id, request foreign_id and decline reason: none of the person's words remain", async () => {
    const WORDS = { order_ref: 'Klassenfahrt Pfeiffer 7b', order_fid: 'pfeiffer-bestellung-1', request_fid: 'pfeiffer-anfrage-1', reason: 'Frau Pfeiffer hat telefonisch abgesagt' };
    const person = { name: 'Petra', surname: 'Pfeiffer', email: 'petra.pfeiffer@example.org' };
    const order = await call('POST', '/orders', reseller, {
      foreign_id: WORDS.order_fid, reference: WORDS.order_ref, customer: person,
      finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(690), attendees: [{ name: 'Paul', surname: 'Pfeiffer' }] } }],
    });
    assert.equal(order.statusCode, 201, order.body);
    const id = order.json().order.customer_id as number;
    const request = await call('POST', '/requests', reseller, {
      foreign_id: WORDS.request_fid, date: localDate(5), participants: 12,
      items: [{ tour_id: c.tourId, start_time: c.at(720), language_id: c.langId }], customer_id: id,
    });
    assert.equal(request.statusCode, 201, request.body);
    const decider = await t.token({ class: 'user', rights: ['requests:write'] });
    const declined = await call('POST', `/requests/${request.json().request.id}/decline`, decider, { reason: WORDS.reason });
    assert.equal(declined.statusCode, 200, declined.body);
    const words = [...Object.values(WORDS), 'Petra', 'Pfeiffer'];
    assert.ok((await traces(words)).length > 0, 'control: the words are stored before the erasure');

    const res = await call('POST', `/customers/${id}/erase`, staff);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await traces(words), []);
    const after = (await call('GET', `/requests/${request.json().request.id}`, reseller)).json().request;
    assert.equal(after.status, 'declined', 'the decision stands');
  });
});

describe('command line', () => {
  test('atrium customer export / erase run the same verbs', async () => {
    const other = await call('POST', '/customers', staff, { name: 'Kurt', surname: 'Cli', email: 'kurt.cli@example.org', foreign_id: 'cli-1' });
    assert.equal(other.statusCode, 201);
    const env = { DATABASE_URL: t.database.url };
    const exp = await runCli(['customer', 'export', 'cli-1'], env, 120_000);
    assert.equal(exp.code, 0, exp.stderr);
    assert.equal(JSON.parse(exp.stdout).export.customer.email, 'kurt.cli@example.org');
    const er = await runCli(['customer', 'erase', String(other.json().customer.id)], env, 120_000);
    assert.equal(er.code, 0, er.stderr);
    assert.equal(JSON.parse(er.stdout).erasure.already_erased, false);
    const row = (await db.execute<{ email: string }>(sql`select email from customers where id = ${other.json().customer.id}`)).rows[0]!;
    assert.match(row.email, /@erased\.invalid$/);
    const missing = await runCli(['customer', 'erase', '999999'], env, 120_000);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /customer not found/);
  });
});
