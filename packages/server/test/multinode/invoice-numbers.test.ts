// Gapless invoice numbers across nodes (docs/adr/0019-invoices-and-numbering.md): N orders
// finalized concurrently through two real `atrium serve` processes on one database, each with
// its own job worker numbering invoices, get the numbers 1…N: no gap, no repeat (N is 30 in
// `npm test`, 100 under ATRIUM_STRESS=1, test/stress/). The control shows that the check
// catches what a non-transactional counter (a PostgreSQL sequence, the usual first idea) does
// when some numbering transactions roll back.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { repeat } from '../helpers/stress.ts';
import { bearer, startNode, type Node } from './nodes.ts';

const N = repeat(30, 100);

const db = await freshDatabase();
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await db.drop();
});

/** What is wrong with a set of numbers that should be exactly 1…n. */
function sequenceFaults(numbers: number[], n: number): string[] {
  const faults: string[] = [];
  const seen = new Set<number>();
  for (const x of numbers) {
    if (seen.has(x)) faults.push(`${x} twice`);
    seen.add(x);
  }
  for (let i = 1; i <= n; i++) if (!seen.has(i)) faults.push(`${i} missing`);
  if (numbers.length !== n) faults.push(`${numbers.length} numbers for ${n} invoices`);
  return faults;
}

const ISSUER = {
  ATRIUM_LOCK_TIMEOUT_MS: '15000', ATRIUM_ISSUER_NAME: 'Node Museum gGmbH', ATRIUM_ISSUER_STREET: 'Knotenweg 2', ATRIUM_ISSUER_ZIP: '10115', ATRIUM_ISSUER_CITY: 'Berlin', ATRIUM_ISSUER_TAX_NUMBER: '27/123/45678' };

test(`${N} orders finalized concurrently on two nodes get invoice numbers 1…${N}`, async () => {
  const museumId = (await f.museum(db.db)).id;
  const q = await f.quota(db.db, { museumId, capacity: 1000 });
  const ticketId = (await f.ticket(db.db, { museumId, quotaIds: [q.id] })).id;
  const { token } = await createToken({ db: db.db, clock: systemClock }, { class: 'reseller', name: 'partner' });

  nodes.push(...(await Promise.all([startNode({ DATABASE_URL: db.url, ...ISSUER }, [], 150_000), startNode({ DATABASE_URL: db.url, ...ISSUER }, [], 150_000)])));
  // All at once, half on each node, spread over slots of several days. A 503 (a lock wait over
  // the limit on this shared 2-core machine) is retried with backoff, as the spec tells clients.
  const place = async (i: number) => {
    const body = {
      finalize: true,
      items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time: zonedInstant(f.localDate(3 + (i % 4)), 600 + 30 * (i % 12), 'Europe/Berlin').toISOString() } }],
    };
    for (let attempt = 0; ; attempt++) {
      const a = await nodes[i % 2]!.send('POST', '/api/v4/orders', body, bearer(token));
      if (a.status !== 503 || attempt === 5) return a;
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  };
  const answers = await Promise.all(Array.from({ length: N }, (_, i) => place(i)));
  assert.deepEqual(answers.map((a) => a.status).filter((s) => s !== 201), [], JSON.stringify(answers.find((a) => a.status !== 201)?.body));

  // Both nodes' workers issue them; wait (bounded) until every invoice has its number.
  const t0 = Date.now();
  let numbered = 0;
  while (Date.now() - t0 < 420_000) {
    const r = await db.db.execute<{ n: number }>(sql`select count(*)::int n from documents where kind = 'invoice' and invoice_number is not null`);
    numbered = r.rows[0]!.n;
    if (numbered === N) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (numbered !== N) {
    const stuck = await db.db.execute(sql`select d.id, d.status, j.attempts, j.last_error from documents d
      left join graphile_worker.jobs j on j.key = 'document:' || d.id where d.kind = 'invoice' and d.invoice_number is null`);
    assert.fail(`${numbered} of ${N} invoices numbered; the others: ${JSON.stringify(stuck.rows)}`);
  }
  const rows = (await db.db.execute<{ number: number; order_id: number }>(sql`select number, order_id from invoices where kind = 'invoice'`)).rows;
  assert.deepEqual(sequenceFaults(rows.map((r) => r.number), N), []);
  assert.equal(new Set(rows.map((r) => r.order_id)).size, N, 'one invoice per order');
  const counter = await db.db.execute<{ last_number: number }>(sql`select last_number from invoice_counter`);
  assert.equal(counter.rows[0]!.last_number, N);
});

test('control: a sequence hands out numbers outside the transaction, and the same check sees the gaps', async () => {
  await db.db.execute(sql`create sequence control_invoice_seq`);
  await db.db.execute(sql`create table control_invoices (number integer primary key)`);
  // 20 concurrent numberings as a naive design would do them; every third fails after taking its
  // number (a render error, a lost connection) and rolls back.
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      db.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into control_invoices select nextval('control_invoice_seq')`);
          if (i % 3 === 0) throw new Error('rendering failed');
        })
        .catch(() => undefined),
    ),
  );
  const kept = (await db.db.execute<{ number: number }>(sql`select number from control_invoices`)).rows.map((r) => r.number);
  assert.equal(kept.length, 13);
  const faults = sequenceFaults(kept, kept.length);
  assert.ok(faults.some((x) => x.endsWith('missing')), `the check reports the gaps: ${faults.join(', ')}`);
});
