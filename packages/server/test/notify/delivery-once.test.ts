// Exactly one send per event and endpoint (docs/adr/0023): the ways one event used to reach an
// endpoint twice, each made to happen on purpose, with a control run that shows the test sees a
// second send when one happens. Deliveries run here by calling the job verb directly (no worker),
// so every interleaving is chosen by the test, against the real database and a real receiver.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { recordEvent } from '../../src/domain/events/record.ts';
import { dispatchEvents } from '../../src/notify/dispatch.ts';
import { deliverWebhook } from '../../src/notify/webhooks/deliver.ts';
import { DeliveryBusy } from '../../src/notify/webhooks/claim.ts';
import { startReceiver } from './receiver.ts';

const TIMEOUT = 300;
const t = await testApp({ env: { ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1', ATRIUM_WEBHOOKS_RETRY_SCHEDULE: '60,60,60', ATRIUM_WEBHOOKS_TIMEOUT_MS: String(TIMEOUT) } });
const rx = await startReceiver();
after(async () => {
  await rx.close();
  await t.close();
});
const db = t.database.db;
const ctx = systemCtx({ db, clock: t.clock, config: t.config });

/** A reseller account of its own (its endpoints receive only its events) and its token. */
async function account() {
  const token = await t.token({ class: 'reseller' });
  const id = (await db.execute<{ id: number }>(sql`select max(id)::int id from accounts`)).rows[0]!.id;
  return { token, id };
}
let owner: { token: string; id: number };
before(async () => {
  owner = await account();
});

async function endpoint(path: string, who = owner) {
  const res = await t.request({ method: 'POST', url: '/api/v4/webhooks', token: who.token, payload: { webhook: { url: `${rx.base}${path}`, events: ['closure.created'] } } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().webhook.id as number;
}
/** Records one event for the owner, fans it out, and returns its delivery to this endpoint. */
async function deliveryOfNewEvent(endpointId: number): Promise<number> {
  const id = await db.transaction((tx) => recordEvent({ db: tx, clock: t.clock }, 'closure.created', { accountId: owner.id, museumIds: [], data: { closure: { id: 1 } } }));
  while ((await dispatchEvents(ctx)) > 0);
  const r = await db.execute<{ id: number }>(sql`select id from webhook_deliveries where event_id = ${id} and endpoint_id = ${endpointId}`);
  return r.rows[0]!.id;
}
/** Drizzle wraps the database's error: match the cause's message. */
const failsWith = (re: RegExp) => (e: unknown) => re.test(String((e as { cause?: Error }).cause?.message ?? (e as Error).message));
const attempts = async (deliveryId: number) =>
  (await db.execute<{ attempt_no: number; status_code: number | null; error: string | null; duration_ms: number | null }>(
    sql`select attempt_no, status_code, error, duration_ms from webhook_attempts where delivery_id = ${deliveryId} order by attempt_no`,
  )).rows;

describe('one send per event and endpoint', () => {
  test('an answer that arrives while this process is stalled is not taken for a timeout (control: a truly late answer is)', async () => {
    // The receiver answers at once and then blocks the event loop for three timeouts, as a PDF
    // render in the worker's process does: the sender's timer is due while the answer sits unread.
    rx.behaviour.set('/stall', { stallAfterAnswerMs: 3 * TIMEOUT });
    const d = await deliveryOfNewEvent(await endpoint('/stall'));
    assert.equal(await deliverWebhook(ctx, { deliveryId: d }), 'succeeded');
    assert.equal(rx.at('/stall').length, 1);
    const [a] = await attempts(d);
    assert.equal(a!.status_code, 200);
    assert.ok(a!.duration_ms! > TIMEOUT, `the stall did happen while the attempt waited (${a!.duration_ms} ms)`);

    // Control: a receiver that really answers after three timeouts is one.
    rx.behaviour.set('/late', { answerAfterMs: 3 * TIMEOUT });
    const late = await deliveryOfNewEvent(await endpoint('/late'));
    assert.equal(await deliverWebhook(ctx, { deliveryId: late }), 'retrying');
    assert.equal((await attempts(late))[0]!.error, `no answer within ${TIMEOUT} ms`);
  });

  test('a second job for a delivery in flight does not send it (control: without the claim it would)', async () => {
    let release!: () => void;
    rx.behaviour.set('/held', { holdUntil: new Promise<void>((r) => (release = r)) });
    const d = await deliveryOfNewEvent(await endpoint('/held'));
    const first = deliverWebhook(ctx, { deliveryId: d });
    while (rx.at('/held').length === 0) await new Promise((r) => setTimeout(r, 10));
    // What a manual retry does while the first attempt waits: another job for the same delivery.
    await assert.rejects(deliverWebhook(ctx, { deliveryId: d }), DeliveryBusy);
    release();
    assert.equal(await first, 'succeeded');
    assert.equal(await deliverWebhook(ctx, { deliveryId: d }), 'skipped', 'delivered: nothing more to send');
    assert.equal(rx.at('/held').length, 1);

    // Control: the same race with the claim taken away by hand sends the event twice, so the
    // receiver's count above would have shown a second send.
    let release2!: () => void;
    rx.behaviour.set('/held2', { holdUntil: new Promise<void>((r) => (release2 = r)) });
    const d2 = await deliveryOfNewEvent(await endpoint('/held2'));
    const one = deliverWebhook(ctx, { deliveryId: d2 });
    while (rx.at('/held2').length === 0) await new Promise((r) => setTimeout(r, 10));
    await db.execute(sql`update webhook_deliveries set sending_until = null where id = ${d2}`);
    const two = deliverWebhook(ctx, { deliveryId: d2 });
    while (rx.at('/held2').length < 2) await new Promise((r) => setTimeout(r, 10));
    release2();
    await Promise.all([one, two]);
    assert.equal(rx.at('/held2').length, 2);
    // Even then each send is its own numbered attempt: attempt 1 cannot be sent twice.
    assert.deepEqual((await attempts(d2)).map((a) => a.attempt_no), [1, 2]);
    await assert.rejects(
      db.execute(sql`insert into webhook_attempts (delivery_id, attempt_no, attempted_at) values (${d2}, 1, now())`),
      failsWith(/webhook_attempts_delivery_attempt/),
    );
  });

  test("a send's outcome survives a failing database write (control: when it cannot be written, the event is sent again)", async () => {
    // The first writes of an attempt's outcome fail, as when the pool cannot hand out a
    // connection under load. A sequence counts across rolled-back transactions.
    await db.execute(sql.raw(`
      create sequence outcome_failures;
      create table outcome_fail_limit (n int);
      insert into outcome_fail_limit values (1);
      create function fail_outcome() returns trigger language plpgsql as $$
      begin
        if new.duration_ms is not null and nextval('outcome_failures') <= (select n from outcome_fail_limit) then
          raise exception 'simulated failure writing the outcome';
        end if;
        return new;
      end $$;
      create trigger fail_outcome before update on webhook_attempts for each row execute function fail_outcome();`));
    try {
      const d = await deliveryOfNewEvent(await endpoint('/flaky-db'));
      assert.equal(await deliverWebhook(ctx, { deliveryId: d }), 'succeeded');
      assert.equal(rx.at('/flaky-db').length, 1);
      assert.equal((await attempts(d))[0]!.status_code, 200);

      // Control: more failures than retries. The job fails with the outcome unknown to the
      // database; once the claim lapses the queue's retry sends the event again (at least once).
      await db.execute(sql`select setval('outcome_failures', 1, false)`);
      await db.execute(sql`update outcome_fail_limit set n = 4`);
      const d2 = await deliveryOfNewEvent(await endpoint('/lost-db'));
      await assert.rejects(deliverWebhook(ctx, { deliveryId: d2 }), failsWith(/simulated failure/));
      await assert.rejects(deliverWebhook(ctx, { deliveryId: d2 }), DeliveryBusy);
      await db.execute(sql`update outcome_fail_limit set n = 0`);
      const until = Date.now() + 20_000;
      let outcome: string | undefined;
      while (!outcome && Date.now() < until) {
        outcome = await deliverWebhook(ctx, { deliveryId: d2 }).catch((e) => (e instanceof DeliveryBusy ? undefined : Promise.reject(e)));
        if (!outcome) await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(outcome, 'succeeded');
      assert.equal(rx.at('/lost-db').length, 2);
    } finally {
      await db.execute(sql.raw('drop trigger fail_outcome on webhook_attempts; drop function fail_outcome(); drop table outcome_fail_limit; drop sequence outcome_failures'));
    }
  });

  test('fan-outs running at once give one delivery per event and endpoint (control: a repeated fan-out adds none)', async () => {
    const other = await account();
    const eps = [await endpoint('/f1', other), await endpoint('/f2', other), await endpoint('/f3', other)];
    const jobsBefore = (await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker.jobs`)).rows[0]!.n;
    const ids: string[] = [];
    await db.transaction(async (tx) => {
      for (let i = 0; i < 60; i++) ids.push(await recordEvent({ db: tx, clock: t.clock }, 'closure.created', { accountId: other.id, museumIds: [], data: { closure: { id: i } } }));
    });
    // Four dispatchers (as on four nodes) race for the same events, each on its own connection.
    const racer = async () => {
      while ((await dispatchEvents(ctx)) > 0) await new Promise((r) => setImmediate(r));
    };
    await Promise.all([racer(), racer(), racer(), racer()]);
    const count = async () =>
      (await db.execute<{ n: number; pairs: number }>(sql`
        select count(*)::int n, count(distinct (endpoint_id, event_id))::int pairs from webhook_deliveries where event_id = any(${`{${ids.join(',')}}`}::text[])`)).rows[0]!;
    assert.deepEqual(await count(), { n: 60 * eps.length, pairs: 60 * eps.length });
    const jobs = (await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker.jobs`)).rows[0]!.n;
    assert.equal(jobs - jobsBefore, 60 * eps.length, 'one delivery job each');

    // Control: the same events fanned out again (as a dispatcher that lost its flag update would)
    // add no delivery and no job: (endpoint, event) is unique.
    await db.execute(sql`update outbox_events set dispatch_pending = true where id = any(${`{${ids.join(',')}}`}::text[])`);
    await Promise.all([racer(), racer()]);
    assert.deepEqual(await count(), { n: 60 * eps.length, pairs: 60 * eps.length });
    assert.equal((await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker.jobs`)).rows[0]!.n, jobs);
    await assert.rejects(
      db.execute(sql`insert into webhook_deliveries (endpoint_id, event_id, created_at, updated_at) values (${eps[0]!}, ${ids[0]!}, now(), now())`),
      failsWith(/webhook_deliveries_endpoint_event/),
    );
  });
});
