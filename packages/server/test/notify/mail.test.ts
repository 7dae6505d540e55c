// Visitor mail end to end: a real SMTP server started here (smtp-server on 127.0.0.1, port 0),
// the real worker rendering the ticket and invoice PDFs, and the received MIME parsed with
// mailparser. Also: the default install's .eml files, an SMTP server refusing at first, the
// account's mail switch, and never two mails for one event.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { testApp } from '../helpers/app.ts';
import { smtpStandIn } from '../helpers/smtp.ts';
import { hasPdfToText, pdfPages, squash } from '../helpers/pdftext.ts';
import { catalogue, testWorker, waitFor as waitLong, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const waitFor = <T>(what: string, check: () => Promise<T>) =>
  waitLong(what, check, 120_000).catch(async (err) => {
    // What the mails are waiting for, in the failure message.
    const rows = await t.database.db.execute(sql`select kind, status, attempt_count, last_error from mail_messages`);
    const docs = await t.database.db.execute(sql`select kind, status, note from documents`);
    throw new Error(`${(err as Error).message}; mails: ${JSON.stringify(rows.rows)}; documents: ${JSON.stringify(docs.rows)}`);
  });
let refuseNext = 0;
const smtp = await smtpStandIn({
  onRcptTo(addr, _session, cb) {
    // A mailbox that does not exist: refused for good.
    if (addr.address === 'gone@example.org') return cb(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
    if (refuseNext > 0) {
      refuseNext--;
      return cb(Object.assign(new Error('try again later'), { responseCode: 451 }));
    }
    cb();
  },
});
const { mailsTo } = smtp;

const t = await testApp({ env: { SMTP_URL: smtp.url, ATRIUM_MAIL_FROM: 'Museum <tickets@museum.example>', ATRIUM_MAIL_REPLY_TO: 'help@museum.example' } });
let worker: Worker;
let c: Catalogue;
let reseller: string;
after(async () => {
  await worker?.stop();
  await t.close();
  await smtp.close();
});
const db = t.database.db;

async function order(customer: object, extra: object = {}) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v4/orders',
    token: reseller,
    payload: { customer, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 2, time: c.at(630) } }], finalize: true, ...extra },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().order as { id: number; items: Array<{ id: number }> };
}

before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
  worker = await testWorker(t, { dispatchIntervalMs: 50, log: process.env.DEBUG_WORKER ? { error: (o: object, m: string) => console.error(m, o), warn: (o: object, m: string) => console.error(m, o), info() {}, debug() {} } : undefined });
});

describe('visitor mail', () => {
  test('a finalized order with a customer email: one mail in German with the ticket PDF and the invoice attached', async () => {
    const o = await order({ name: 'Jürgen', surname: 'Müller <b>', email: 'juergen@example.org', locale: 'de' });
    const [m] = await waitFor('confirmation', async () => (mailsTo('juergen@example.org').length ? mailsTo('juergen@example.org') : null));
    assert.equal(m!.subject, `Ihre Buchung ${o.id} ist bestätigt`);
    assert.equal(m!.from?.value[0]?.address, 'tickets@museum.example');
    assert.equal((m!.replyTo?.value[0]?.address), 'help@museum.example');
    assert.match(m!.text ?? '', /Guten Tag Jürgen Müller <b>,/);
    assert.match(m!.text ?? '', /2 × Eintritt regulär/);
    // HTML part: data escaped, never markup.
    assert.match(String(m!.html), /Müller &lt;b&gt;/);
    assert.doesNotMatch(String(m!.html), /Müller <b>/);
    const pdfs = m!.attachments.filter((a) => a.contentType === 'application/pdf');
    assert.ok(pdfs.some((a) => /^tickets?-/.test(a.filename ?? '')), JSON.stringify(m!.attachments.map((a) => a.filename)));
    assert.ok(pdfs.some((a) => /invoice|rechnung/i.test(a.filename ?? '')), JSON.stringify(m!.attachments.map((a) => a.filename)));
    for (const a of pdfs) assert.equal(a.content.subarray(0, 5).toString(), '%PDF-');
    // Never twice: the event is dispatched again (as after a crash) and the mail job repeated.
    await db.execute(sql`update outbox_events set dispatch_pending = true where subject_type = 'order' and subject_id = ${o.id}`);
    await waitFor('re-dispatched', async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where dispatch_pending`)).rows[0]!.n === 0);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(mailsTo('juergen@example.org').length, 1);
  });

  test('English customer, English mail; a cancellation mails again', async () => {
    const o = await order({ name: 'Ann', surname: 'Lee', email: 'ann@example.org', locale: 'en' });
    await waitFor('confirmation', async () => mailsTo('ann@example.org').length === 1);
    assert.equal(mailsTo('ann@example.org')[0]!.subject, `Your booking ${o.id} is confirmed`);
    const res = await t.request({ method: 'POST', url: `/api/v4/orders/${o.id}/cancellations`, token: reseller, payload: {} });
    assert.equal(res.statusCode, 200);
    await waitFor('cancellation', async () => mailsTo('ann@example.org').length === 2);
    assert.equal(mailsTo('ann@example.org')[1]!.subject, `Cancellation of your booking ${o.id}`);
    assert.match(mailsTo('ann@example.org')[1]!.text ?? '', /Cancelled/);
    assert.ok(mailsTo('ann@example.org')[1]!.attachments.some((x) => /^credit-note-/.test(x.filename ?? '') && x.content.subarray(0, 5).toString() === '%PDF-'), 'credit note attached');
  });

  test('an SMTP server refusing at first: the mail is retried and sent once; the failure is recorded', async () => {
    refuseNext = 1;
    await order({ name: 'Bo', surname: 'Berg', email: 'bo@example.org', locale: 'en' });
    await waitFor('sent after retry', async () => mailsTo('bo@example.org').length === 1);
    // The server has it; the row is marked sent right after the SMTP answer.
    const row = await waitFor('recorded as sent', async () => {
      const [r] = (await db.execute<{ status: string; attempt_count: number; last_error: string | null }>(sql`select status, attempt_count, last_error from mail_messages where recipient = 'bo@example.org'`)).rows;
      return r?.status === 'sent' ? r : null;
    });
    assert.deepEqual([row.status, row.attempt_count], ['sent', 2]);
    assert.match(row.last_error ?? '', /try again later/); // the refusal stays on record
  });

  test('a tour booking: the mail carries the booking confirmation in German and says what is attached', async () => {
    await order(
      { name: 'Ute', surname: 'Ulm', email: 'ute@example.org', locale: 'de' },
      { items: [{ type: 'Tour', attributes: { id: c.tourId, quantity: 5, start_time: c.at(600), language_id: c.langId } }] },
    );
    const [m] = await waitFor('the tour mail', async () => (mailsTo('ute@example.org').length ? mailsTo('ute@example.org') : null));
    const pdfs = m!.attachments.filter((a) => a.contentType === 'application/pdf');
    const names = pdfs.map((a) => a.filename ?? '');
    assert.ok(names.some((n) => /confirmation|bestaetigung|bestätigung/i.test(n)), `a confirmation is attached: ${JSON.stringify(names)}`);
    assert.ok(names.some((n) => /invoice|rechnung/i.test(n)), JSON.stringify(names));
    assert.ok(!names.some((n) => /^tickets?-/.test(n)), 'a tour has no tickets');
    assert.match(m!.text ?? '', /Ihre Buchungsbestätigung und die Rechnung finden Sie im Anhang\./);
    assert.doesNotMatch(m!.text ?? '', /Tickets/);
    const confirmation = pdfs.find((a) => !/invoice|rechnung/i.test(a.filename ?? ''))!;
    const pages = pdfPages(confirmation.content);
    if (!hasPdfToText || !pages) return;
    const text = squash(pages.join(' '));
    assert.match(text, /Buchungsbestätigung/);
    assert.doesNotMatch(text, /Booking confirmation/);
  });

  test('a permanent SMTP refusal (550) ends the retries at once: stored as failed with the reason', async () => {
    await order({ name: 'Gus', surname: 'Gone', email: 'gone@example.org', locale: 'de' });
    const row = await waitFor('failed at once', async () => {
      const [r] = (await db.execute<{ status: string; attempt_count: number; last_error: string | null }>(sql`select status, attempt_count, last_error from mail_messages where recipient = 'gone@example.org'`)).rows;
      return r?.status === 'failed' ? r : null;
    });
    assert.equal(row.attempt_count, 1);
    assert.match(row.last_error ?? '', /550/);
    // No retry stays queued for it (its one job completes; a retried one would stay waiting).
    await waitLong('its job done, no retry queued', async () => {
      const jobs = await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker._private_jobs j where j.payload->>'mailId' = (select id::text from mail_messages where recipient = 'gone@example.org')`);
      return jobs.rows[0]!.n === 0;
    }, 5_000);
    const after = (await db.execute<{ attempt_count: number }>(sql`select attempt_count from mail_messages where recipient = 'gone@example.org'`)).rows[0]!;
    assert.equal(after.attempt_count, 1);
  });

  test("the account's mail switch turns mail off for its own orders", async () => {
    const quiet = await t.token({ class: 'reseller' });
    const [acc] = (await db.execute<{ account_id: number }>(sql`select account_id from api_tokens order by id desc limit 1`)).rows;
    await db.execute(sql`insert into account_notify_settings (account_id, mail_enabled) values (${acc!.account_id}, false)`);
    const res = await t.request({
      method: 'POST',
      url: '/api/v4/orders',
      token: quiet,
      payload: { customer: { name: 'No', surname: 'Mail', email: 'nomail@example.org' }, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }], finalize: true },
    });
    assert.equal(res.statusCode, 201, res.body);
    await waitFor('dispatched', async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from outbox_events where dispatch_pending`)).rows[0]!.n === 0);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(mailsTo('nomail@example.org').length, 0);
  });
});

describe('default install', () => {
  test('without SMTP_URL each message is written as an .eml file under ATRIUM_DATA_DIR/mail/', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atrium-mail-'));
    const t2 = await testApp({ env: { ATRIUM_DATA_DIR: dir } });
    const w2 = await testWorker(t2, { dispatchIntervalMs: 50 });
    try {
      const c2 = await catalogue(t2.database.db);
      const staff = await t2.token({ class: 'user' });
      const res = await t2.request({
        method: 'POST',
        url: '/api/v4/requests',
        token: staff,
        payload: { date: c2.at(660).slice(0, 10), participants: 12, items: [{ tour_id: c2.tourId, start_time: c2.at(660), language_id: c2.langId }], customer: { name: 'Eva', surname: 'Ek', email: 'eva@example.org', locale: 'de' } },
      });
      assert.equal(res.statusCode, 201, res.body);
      const files = await waitFor('.eml', async () => {
        const f = await readdir(path.join(dir, 'mail')).catch(() => [] as string[]);
        return f.length ? f : null;
      });
      assert.equal(files.length, 1);
      assert.match(files[0]!, /request_received\.eml$/);
      const m = await simpleParser(await readFile(path.join(dir, 'mail', files[0]!)));
      assert.equal(m.subject, `Wir haben Ihre Gruppenanfrage ${res.json().request.id} erhalten`);
      assert.ok(m.text && m.html);
    } finally {
      await w2.stop();
      await t2.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
