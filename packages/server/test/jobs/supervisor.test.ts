// The supervised job runner: a runner whose pool exits on an error is restarted (readiness is 503
// while none runs); jobs locked by a dead worker pool are released at start and by the periodic
// sweep, not after graphile-worker's four hours; a job error that PostgreSQL cannot store as it is
// (NUL bytes, a statement's bound parameters) is stored cleaned and does not stop the runner.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import type { Renderers } from '../../src/domain/documents/generateDocument.ts';
import { renderConfirmationPdf } from '../../src/documents/render/confirmation.ts';
import { renderInvoicePdf } from '../../src/documents/render/invoice.ts';
import { renderTicketsPdf } from '../../src/documents/render/tickets.ts';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import { healthRoutes } from '../../src/http/api/routes/health.ts';
import { enqueue, TASKS } from '../../src/db/repositories/jobQueue.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { testApp } from '../helpers/app.ts';
import { catalogue, documentStatus, finalizedOrder, queuedJobs, testWorker, waitFor, type Catalogue } from './support.ts';

const t = await testApp();
const db = t.database.db;
const workers: Worker[] = [];
after(async () => {
  for (const w of workers) await w.stop();
  await t.close();
});
let c: Catalogue, reseller: string;
before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
});

const fast = { backoff: { baseMs: 1500, maxMs: 3000 }, liveness: { heartbeatMs: 200, deadAfterMs: 1500 } };

async function readiness(w: Worker) {
  const app = Fastify();
  await app.register(healthRoutes(t.database.pool, () => w.health()));
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  await app.close();
  return { status: res.statusCode, body: res.json() as { status: string; reason?: string } };
}

async function jobRows() {
  const r = await db.execute<{ id: number; task: string; locked_by: string | null; last_error: string | null; payload: Record<string, unknown> }>(
    sql`select j.id, t.identifier task, j.locked_by, j.last_error, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`,
  );
  return r.rows;
}

test('a runner whose pool exits on an error is restarted; /readyz is 503 while it is down', async () => {
  // The pool exits when it cannot record a job's completion (as with the database killed under
  // load): a trigger refuses to delete the marked job while the switch row exists.
  await db.execute(sql`create table test_refuse_completion (on_ boolean)`);
  await db.execute(sql`insert into test_refuse_completion values (true)`);
  await db.execute(sql.raw(`create function test_refuse_completion() returns trigger language plpgsql as $$
    begin
      if old.payload::jsonb ->> 'explode' is not null and exists (select 1 from test_refuse_completion) then
        raise exception 'completion refused by the test';
      end if;
      return old;
    end $$`));
  await db.execute(sql.raw(`create trigger test_refuse_completion before delete on graphile_worker._private_jobs
    for each row execute function test_refuse_completion()`));
  try {
    const w = await testWorker(t, fast);
    workers.push(w);
    assert.equal((await readiness(w)).status, 200);
    await enqueue(db, TASKS.purgeIdempotencyKeys, { explode: true });
    await waitFor('the runner to stop', async () => !w.health().up);
    const down = await readiness(w);
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'job runner down');
    assert.match(down.body.reason ?? '', /completion refused|runner/);

    await db.execute(sql`delete from test_refuse_completion`);
    await waitFor('the runner to be back', async () => w.health().up);
    assert.equal((await readiness(w)).status, 200);
    // A job added after the restart runs, and so does the one the dead pool held (released).
    await enqueue(db, TASKS.purgeIdempotencyKeys, { after: true });
    await waitFor('both jobs done', async () => (await queuedJobs(db)) === 0, 15_000);
    await w.stop();
  } finally {
    await db.execute(sql`drop trigger test_refuse_completion on graphile_worker._private_jobs`);
    await db.execute(sql`drop function test_refuse_completion()`);
    await db.execute(sql`drop table test_refuse_completion`);
  }
});

/** Adds a job and locks it for `pool`, as a worker that took it would have. */
async function lockedJob(pool: string, marker: string) {
  await db.execute(sql`select graphile_worker.add_job(identifier => ${TASKS.purgeIdempotencyKeys}::text,
    payload => ${JSON.stringify({ marker })}::json, run_at => now() + interval '1 hour')`);
  await db.execute(sql`update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - interval '1 hour', run_at = now()
    where payload::jsonb ->> 'marker' = ${marker}`);
}

test('jobs locked by a dead worker pool are released at start and by the sweep; a live pool keeps its jobs', async () => {
  await lockedJob('pool-killed-before-start', 'at-start');
  // Control: a pool with a fresh heartbeat is alive, its (old) lock stays.
  await db.execute(sql`insert into job_worker_heartbeats (worker_id) values ('pool-alive')`);
  await lockedJob('pool-alive', 'alive');
  const keepAlive = setInterval(() => void db.execute(sql`update job_worker_heartbeats set heartbeat_at = now() where worker_id = 'pool-alive'`), 100);
  try {
    const w = await testWorker(t, fast);
    workers.push(w);
    const marker = async (m: string) => (await jobRows()).find((j) => j.payload.marker === m);
    await waitFor('the job of the pool dead before start to run', async () => !(await marker('at-start')), 5_000);

    await lockedJob('pool-died-while-running', 'swept');
    await waitFor('the sweep to release and run it', async () => !(await marker('swept')), 5_000);
    const alive = await marker('alive');
    assert.equal(alive?.locked_by, 'pool-alive', 'a live pool keeps its locked job');
    await w.stop();
  } finally {
    clearInterval(keepAlive);
    await db.execute(sql`delete from graphile_worker._private_jobs where payload::jsonb ->> 'marker' = 'alive'`);
  }
});

test('a job error with NUL bytes and bound parameters is stored cleaned; the runner keeps running', async () => {
  let failures = 1;
  const renderers: Renderers = {
    ticket: async (input) => {
      if (failures-- > 0) {
        // What Drizzle throws when a write of the rendered PDF fails (the disk full): the message
        // repeats the statement's parameters, here PDF bytes with NUL and a customer's e-mail.
        throw Object.assign(new Error('Failed query: update documents set body = $1 where id = $2\nparams: %PDF-1.7\u0000\u0001\u0000binary,mara@example.org'), {
          code: '53100',
        });
      }
      return renderTicketsPdf(input);
    },
    invoice: renderInvoicePdf,
    eInvoice: renderEInvoiceXml,
    confirmation: renderConfirmationPdf,
  };
  const w = await testWorker(t, { ...fast, renderers });
  workers.push(w);
  const order = await finalizedOrder(t, reseller, c);
  const failed = await waitFor('the failed render to be recorded', async () => (await jobRows()).find((j) => j.task === TASKS.renderDocument && j.last_error), 10_000);
  const stored = failed.last_error!;
  assert.doesNotMatch(stored, /\u0000/);
  assert.doesNotMatch(stored, /mara@example\.org|%PDF/);
  assert.match(stored, /failed query/);
  assert.match(stored, /53100/);
  assert.ok(stored.length <= 600);
  assert.equal(w.health().up, true);
  // The retry (graphile-worker's backoff: about 3 s) renders it.
  const ticket = order.documents.find((d) => d.kind === 'ticket')!;
  await waitFor('the ticket rendered on retry', async () => (await documentStatus(db, ticket.id)) === 'available', 15_000);
  await w.stop();
});
