// The durable queue: jobs commit or roll back with the business transaction, survive a worker
// restart (stopped with jobs queued, a new process on the same database finishes them exactly
// once, invoice numbers gapless), failing jobs are retried with backoff without burning invoice
// numbers, and the worker started by buildApp stops with the app.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { orders } from '../../src/db/schema/index.ts';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/client.ts';
import { systemCtx } from '../../src/domain/context.ts';
import type { Renderers } from '../../src/domain/documents/generateDocument.ts';
import { queueFinalizedOrderDocuments } from '../../src/domain/documents/queueOrderDocuments.ts';
import { renderConfirmationPdf } from '../../src/documents/render/confirmation.ts';
import { renderInvoicePdf } from '../../src/documents/render/invoice.ts';
import { renderTicketsPdf } from '../../src/documents/render/tickets.ts';
import { renderEInvoiceXml } from '../../src/documents/einvoice/build.ts';
import { testApp, TEST_SCHEMAS } from '../helpers/app.ts';
import { catalogue, documentStatus, finalizedOrder, queuedJobs, testWorker, waitFor, type Catalogue } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
let c: Catalogue, reseller: string;

before(async () => {
  c = await catalogue(db);
  reseller = await t.token({ class: 'reseller' });
});

/** Real renderers that count their calls per "<kind>:<order id>" and can be slowed down or fail. */
function counting(counts: Map<string, number>, o: { delayMs?: number; failFirst?: Set<string> } = {}): Renderers {
  const wrap = <I extends { order?: { id: number } | null }>(kind: string, fn: (i: I) => Promise<Buffer>) => async (input: I) => {
    const key = `${kind}:${input.order!.id}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
    if (o.failFirst?.delete(key)) throw new Error(`induced failure of ${key}`);
    return fn(input);
  };
  return {
    ticket: wrap('ticket', renderTicketsPdf),
    invoice: wrap('invoice', renderInvoicePdf),
    eInvoice: wrap('e_invoice', renderEInvoiceXml),
    confirmation: wrap('confirmation', renderConfirmationPdf),
  };
}

async function statuses(orderIds: number[]) {
  const r = await db.execute<{ order_id: number; kind: string; status: string; invoice_number: number | null }>(
    sql`select order_id, kind, status, invoice_number from documents where order_id = any(${`{${orderIds.join(',')}}`}::int[]) order by id`,
  );
  return r.rows;
}

/** Documents flagged for rendering whose job the dispatcher has not added yet. */
async function flagged(ids?: number[]) {
  const r = await db.execute<{ n: number }>(
    ids
      ? sql`select count(*)::int n from documents where render_pending and order_id = any(${`{${ids.join(',')}}`}::int[])`
      : sql`select count(*)::int n from documents where render_pending`,
  );
  return r.rows[0]!.n;
}

describe('job queue', () => {
  test('a rolled-back transaction flags nothing, enqueues nothing and creates no document', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v4/orders', token: reseller,
      payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: c.ticketId, quantity: 1, time: c.at(600) } }] } });
    const orderId = res.json().order.id as number;
    const accountId = (await db.select({ a: orders.accountId }).from(orders).where(eq(orders.id, orderId)))[0]!.a;
    const jobsBefore = await queuedJobs(db);
    const ctx = systemCtx({ db, clock: t.clock, config: t.config });
    await assert.rejects(
      db.transaction(async (tx) => {
        await queueFinalizedOrderDocuments(tx, ctx, { id: orderId, accountId, museumIds: [c.museumId] }, ['Ticket']);
        const inTx = await tx.execute<{ n: number }>(sql`select count(*)::int n from documents where order_id = ${orderId} and render_pending`);
        assert.equal(inTx.rows[0]!.n, 2, 'ticket and invoice flagged for rendering');
        throw new Error('business rule failed later in the transaction');
      }),
      /business rule failed/,
    );
    assert.equal(await queuedJobs(db), jobsBefore);
    assert.deepEqual(await statuses([orderId]), []);
  });

  test('the dispatcher turns each flagged document into exactly one job, also when dispatchers race', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await finalizedOrder(t, reseller, c)).id);
    assert.equal(await flagged(ids), 10, 'the orders only flagged their documents');
    const before = await queuedJobs(db);
    // Four dispatchers at once (as on four nodes): SKIP LOCKED hands each document to one of them.
    const dispatch = () => db.execute<{ n: number }>(sql`select documents_dispatch(3, 'documents.render', 12) as n`);
    let taken = 0;
    while ((await flagged()) > 0) {
      const rs = await Promise.all([dispatch(), dispatch(), dispatch(), dispatch()]);
      taken += rs.reduce((s, r) => s + Number(r.rows[0]!.n), 0);
    }
    assert.ok(taken >= 10, `took ${taken}`);
    assert.equal(await queuedJobs(db), before + taken, 'one job per dispatched document');
    const keys = await db.execute<{ key: string; n: number }>(
      sql`select key, count(*)::int n from graphile_worker.jobs where key like 'document:%' group by key having count(*) > 1`,
    );
    assert.deepEqual(keys.rows, [], 'no document has two jobs');
    assert.equal(Number((await dispatch()).rows[0]!.n), 0, 'nothing left to dispatch');
    // Leave the queue as found for the next test, whose worker counts what it renders.
    await db.execute(sql`select graphile_worker.remove_job(key) from graphile_worker.jobs where key like 'document:%'`);
  });

  test('a worker stopped with jobs queued: a new process on the same database does each job exactly once', async () => {
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await finalizedOrder(t, reseller, c));
    const ids = orders.map((o) => o.id);
    assert.equal(await flagged(ids), 12, 'two documents per order wait for their render jobs');

    const counts = new Map<string, number>();
    const first = await testWorker(t, { concurrency: 1, renderers: counting(counts, { delayMs: 150 }) });
    await waitFor('a few documents', async () => (await statuses(ids)).filter((d) => d.status === 'available').length >= 2);
    await first.stop();
    const midway = await statuses(ids);
    const done = midway.filter((d) => d.status === 'available').length;
    // Each issued invoice adds its e-invoice document (flagged, then dispatched): 18 in all.
    assert.ok(done >= 2 && done < 18, `stopped midway (${done} of 18 done)`);
    assert.equal((await queuedJobs(db)) + (await flagged(ids)), midway.length - done, 'the graceful stop completed what it ran and left the rest queued');

    // "Restart": another pool (another process, as far as PostgreSQL can tell) and a new worker.
    const other = openDatabase(t.database.url, { max: 5 });
    try {
      const second = await testWorker(t, { database: other, concurrency: 2, renderers: counting(counts) });
      try {
        await waitFor('every document', async () => (await statuses(ids)).every((d) => d.status === 'available'));
      } finally {
        await second.stop();
      }
    } finally {
      await other.close();
    }
    const final = await statuses(ids);
    assert.equal(final.length, 18, 'no duplicate documents (ticket, invoice, e-invoice per order)');
    assert.equal(await queuedJobs(db), 0);
    assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'each document rendered exactly once');
    assert.equal(counts.size, 18);
    const numbers = final.filter((d) => d.kind === 'invoice').map((d) => d.invoice_number!).sort((a, b) => a - b);
    const start = numbers[0]!;
    assert.deepEqual(numbers, [0, 1, 2, 3, 4, 5].map((n) => start + n), 'invoice numbers are consecutive');
  });

  test('a failing render is retried with backoff; the invoice keeps the number of its first attempt', async () => {
    const o = await finalizedOrder(t, reseller, c);
    const invoice = o.documents.find((d) => d.kind === 'invoice')!;
    const counts = new Map<string, number>();
    const key = `invoice:${o.id}`;
    const worker = await testWorker(t, { renderers: counting(counts, { failFirst: new Set([key]) }) });
    try {
      const failed = async () =>
        (await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker.jobs where key = ${`document:${invoice.id}`} and last_error is not null`)).rows[0]!.n;
      await waitFor('the failed first attempt to be recorded', async () => (await failed()) === 1);
      const numbered = (await statuses([o.id])).find((d) => d.kind === 'invoice')!;
      assert.equal(numbered.status, 'processing');
      assert.ok(numbered.invoice_number! > 0, 'numbered before rendering');
      const job = await db.execute<{ attempts: number; last_error: string; run_at: string }>(
        sql`select attempts, last_error, run_at from graphile_worker.jobs where key = ${`document:${invoice.id}`}`,
      );
      assert.equal(job.rows[0]!.attempts, 1);
      assert.match(job.rows[0]!.last_error, /induced failure/);
      assert.ok(new Date(job.rows[0]!.run_at).getTime() > Date.now(), 'the retry waits (backoff)');
      await waitFor('the retry', async () => (await documentStatus(db, invoice.id)) === 'available', 30_000);
      assert.equal(counts.get(key), 2);
      assert.equal((await statuses([o.id])).find((d) => d.kind === 'invoice')!.invoice_number, numbered.invoice_number);
      const counter = await db.execute<{ last_number: number }>(sql`select last_number from invoice_counter`);
      assert.equal(counter.rows[0]!.last_number, numbered.invoice_number, 'no number was burnt by the failure');
    } finally {
      await worker.stop();
    }
  });

  test('buildApp({ worker: true }) runs jobs and stops its worker when the app closes', async () => {
    const o = await finalizedOrder(t, reseller, c);
    const other = openDatabase(t.database.url, { max: 5 });
    const app = await buildApp({ database: other, config: t.config, clock: t.clock, logger: false, worker: true, ...TEST_SCHEMAS });
    try {
      await waitFor('documents by the app worker', async () => (await statuses([o.id])).every((d) => d.status === 'available'));
    } finally {
      await app.close();
      await other.close();
    }
    const workers = await db.execute<{ n: number }>(sql`select count(*)::int n from graphile_worker._private_jobs where locked_by is not null`);
    assert.equal(workers.rows[0]!.n, 0, 'nothing left locked by the closed worker');
  });
});
