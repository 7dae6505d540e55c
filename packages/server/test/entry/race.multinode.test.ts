// Fifty gates scan one single-entry barcode at the same moment, through two server processes on
// one database: exactly one scan is valid and all fifty are stored. The control run does the same
// with the store's compare-and-set switched off (docs/adr/0027-scans-without-a-held-lock.md) and
// must see more than one valid scan, which shows the test catches the race the check prevents (a
// read-then-write of the barcode's state).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { asc, eq, sql } from 'drizzle-orm';
import { barcodes, orderItems, orders } from '../../src/db/schema/index.ts';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { issueBarcodes } from '../../src/domain/orders/barcodes.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { repeat } from '../helpers/stress.ts';
import { bearer, startNode, type Node } from '../multinode/nodes.ts';
import { startTestNode } from '../multinode/test-node.ts';

const db = await freshDatabase();
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await db.drop();
});

const museumId = (await f.museum(db.db)).id;
const tourId = (await f.tour(db.db, { museumId, duration: 120 })).id;
const ctx = { db: db.db, clock: systemClock };
const gates = await Promise.all([1, 2].map(async (n) => (await createToken(ctx, { class: 'entry', name: `Gate ${n}`, museumIds: [museumId] })).token));
const owner = await createToken(ctx, { class: 'reseller', name: 'seller' });

/** A single-entry barcode whose window is open now (a tour that started a minute ago). */
async function freshBarcode(): Promise<string> {
  const now = new Date();
  const [account] = (await db.db.execute<{ account_id: number }>(sql`select account_id from api_tokens where id = ${owner.tokenId}`)).rows;
  const [o] = await db.db.insert(orders).values({ accountId: account!.account_id, token: `ord_${randomUUID()}`, status: 'finalized', source: 'api', totalPriceCents: 0, currency: 'EUR', museumIds: [museumId], requestHash: 'race', createdAt: now, updatedAt: now, finalizedAt: now }).returning();
  const [item] = await db.db.insert(orderItems).values({ orderId: o!.id, type: 'Tour', museumId, tourId, quantity: 1, startAt: new Date(now.getTime() - 60_000), unitPriceCents: 0, priceCents: 0, vatPct: 0, taxIncluded: true }).returning();
  await db.db.transaction((tx) => issueBarcodes(tx, now, [{ orderItemId: item!.id, count: 1 }]));
  const [b] = await db.db.select({ code: barcodes.code }).from(barcodes).where(eq(barcodes.orderItemId, item!.id)).orderBy(asc(barcodes.id));
  return b!.code;
}

/** The race-node.ts process (same app, lock switch as a test option), as startNode does for serve. */
const startRaceNode = (unlocked: boolean) => startTestNode({ DATABASE_URL: db.url, ENTRY_UNLOCKED: unlocked ? '1' : '0' });

/** One scan through each node first, so neither is still compiling schemas during the rush. */
async function warmUp(pair: Node[]) {
  for (const [i, n] of pair.entries()) {
    const r = await n.send('POST', '/api/v4/scans', { scan: { barcode: await freshBarcode() } }, bearer(gates[i]!));
    assert.equal(r.body.scan.result, 'valid');
  }
}

async function rush(pair: Node[], code: string) {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => pair[i % 2]!.send('POST', '/api/v4/scans', { scan: { barcode: code, device_scan_id: `rush-${code}-${i}` } }, bearer(gates[i % 2]!))),
  );
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [201], JSON.stringify(answers.find((a) => a.status !== 201)?.body));
  const stored = await db.db.execute<{ n: number }>(sql`select count(*)::int as n from scans where barcode = ${code}`);
  return { valid: answers.filter((a) => a.body.scan.result === 'valid').length, stored: stored.rows[0]!.n, results: answers.map((a) => a.body.scan.result as string) };
}

describe('two gates, one ticket, two server processes', () => {
  test('50 simultaneous scans of a single-entry barcode: exactly one valid, all stored', async () => {
    const pair = await Promise.all([startNode({ DATABASE_URL: db.url }, [], 120_000), startNode({ DATABASE_URL: db.url }, [], 120_000)]);
    nodes.push(...pair);
    await warmUp(pair);
    // One rush in `npm test`; ten under ATRIUM_STRESS=1 (test/stress/).
    for (let round = 0; round < repeat(1, 10); round++) {
      const r = await rush(pair, await freshBarcode());
      assert.equal(r.valid, 1, `round ${round}: ${r.results.join(',')}`);
      assert.equal(r.stored, 50);
    }
  });

  test('control: without the compare-and-set the same rush admits more than once', async () => {
    const pair = await Promise.all([startRaceNode(true), startRaceNode(true)]);
    nodes.push(...pair);
    await warmUp(pair);
    // Bounded retries: the race is near-certain with 50 concurrent scans, but timing-dependent.
    let worst = 0;
    for (let round = 0; round < 5 && worst <= 1; round++) worst = Math.max(worst, (await rush(pair, await freshBarcode())).valid);
    assert.ok(worst > 1, `without the compare-and-set only ${worst} valid scan(s): the test would not catch the race`);
  });
});
