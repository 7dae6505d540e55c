// A mail the SMTP server accepted is recorded as sent even when the database fails right after
// the acceptance (as when it is killed under load): the record is retried until the database
// answers, so the queue does not send the mail again. The fault is real: the stand-in SMTP server
// renames the mail table away before it answers 250, and the test puts it back a moment later.
// A control run, with the retries off, shows the test sees the second mail when one is sent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { systemCtx } from '../../src/domain/context.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { MAX_WAITS, sendMail } from '../../src/notify/mail/sendMail.ts';
import { testApp } from '../helpers/app.ts';
import { smtpStandIn } from '../helpers/smtp.ts';
import { catalogue, type Catalogue } from '../jobs/support.ts';

let away = false;
/** The table's return, started when the stand-in took it away. */
let back: Promise<unknown> | undefined;
const smtp = await smtpStandIn({
  async beforeAccept() {
    if (!away) return;
    await db.execute(sql`alter table mail_messages rename to mail_messages_away`);
    back = new Promise((r) => setTimeout(r, 1200)).then(() => db.execute(sql`alter table mail_messages_away rename to mail_messages`));
  },
});
const t = await testApp({ env: { SMTP_URL: smtp.url, ATRIUM_MAIL_FROM: 'Museum <tickets@museum.example>' } });
const db = t.database.db;
const ctx = systemCtx({ db, clock: t.clock, config: t.config });
let c: Catalogue;
let reseller: string;
before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
});
after(async () => {
  await t.close();
  await smtp.close();
});

/** A finalized order for `email`; returns its pending confirmation mail's id. */
async function pendingMail(email: string): Promise<number> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v4/orders',
    token: reseller,
    payload: { customer: { name: 'Ada', surname: 'Lovelace', email }, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(630) } }], finalize: true },
  });
  assert.equal(res.statusCode, 201, res.body);
  while ((await dispatchEvents(ctx)) > 0);
  const r = await db.execute<{ id: number }>(sql`select id from mail_messages where recipient = ${email} and kind = 'order_confirmation' and status = 'pending'`);
  assert.equal(r.rows.length, 1);
  return r.rows[0]!.id;
}
/** Waits for the table to be back (an error in putting it back fails the test). */
async function tableBack() {
  away = false;
  assert.ok(back, 'the stand-in took the table away');
  await back;
  back = undefined;
}
// The documents are not rendered here (no worker): send at once without waiting for them.
const send = (mailId: number, waits: readonly number[]) => sendMail(ctx, { mailId, waits: MAX_WAITS }, undefined, waits);

test('the database failing right after the SMTP server accepted: recorded as sent once the database answers, never sent twice', async () => {
  const id = await pendingMail('once@example.org');
  away = true;
  try {
    assert.equal(await send(id, [250, 500, 1000, 2000, 2000]), 'sent');
  } finally {
    await tableBack();
  }
  const row = (await db.execute<{ status: string; message_id: string; attempt_count: number }>(sql`select status, message_id, attempt_count from mail_messages where id = ${id}`)).rows[0]!;
  assert.equal(row.status, 'sent');
  assert.equal(row.attempt_count, 1);
  // The queue running the job again (a retry, a released lock) sends nothing.
  assert.equal(await send(id, []), 'skipped');
  const got = smtp.mailsTo('once@example.org');
  assert.equal(got.length, 1);
  assert.equal(got[0]!.messageId, row.message_id);
});

test('control: without the retries the lost record makes the queue send the mail a second time', async () => {
  const id = await pendingMail('twice@example.org');
  away = true;
  try {
    await assert.rejects(send(id, []), /sent but not recorded/);
  } finally {
    await tableBack();
  }
  assert.equal((await db.execute<{ status: string }>(sql`select status from mail_messages where id = ${id}`)).rows[0]!.status, 'pending');
  assert.equal(await send(id, []), 'sent');
  const got = smtp.mailsTo('twice@example.org');
  assert.equal(got.length, 2, 'the same mail twice');
  assert.equal(got[0]!.messageId, got[1]!.messageId);
});
