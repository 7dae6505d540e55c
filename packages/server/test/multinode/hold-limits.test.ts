// Hold limits against concurrency, on two server processes and one database: one reseller sends
// a burst of reservations at once, half through each node. The share limit (25 % of a slot of
// 40, so 10 places) and the count limit (at most 5 live holds) must hold however the requests
// interleave: the check and the claim run under the account's hold lock
// (src/domain/capacity/holdLimits.ts). The control run sends the same bursts to nodes with that
// lock switched off and must see a limit exceeded, which shows the test catches the race.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { addDays, localDateOf, zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { repeat } from '../helpers/stress.ts';
import { bearer, type Node } from './nodes.ts';
import { startTestNode } from './test-node.ts';

const db = await freshDatabase();
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await db.drop();
});

const museumId = (await f.museum(db.db)).id;
const quotaId = (await f.quota(db.db, { museumId, capacity: 40 })).id;
const ticketId = (await f.ticket(db.db, { museumId, quotaIds: [quotaId] })).id;
const ctx = { db: db.db, clock: systemClock };
const limits = { ATRIUM_HOLD_LIMIT_SHARE: '25', ATRIUM_HOLD_LIMIT_COUNT: '5' };

let day = 10;
/** Slots of a fresh local day in the future: 10:00, 10:30, … (the ticket's grid). */
function freshDay(): (n: number) => string {
  const date = addDays(localDateOf(new Date(), 'Europe/Berlin'), day++);
  return (n) => zonedInstant(date, 600 + 30 * n, 'Europe/Berlin').toISOString();
}

async function pair(unlocked: boolean): Promise<{ nodes: Node[]; token: string }> {
  const env = { DATABASE_URL: db.url, HOLD_LIMITS_UNLOCKED: unlocked ? '1' : '0', ...limits };
  const started = await Promise.all([startTestNode(env), startTestNode(env)]);
  nodes.push(...started);
  const token = (await createToken(ctx, { class: 'reseller', name: `hoarder ${unlocked ? 'unlocked' : 'locked'}` })).token;
  // One request through each node first, so neither is still compiling schemas during the burst.
  const warm = freshDay();
  for (const n of started) {
    const r = await n.send('POST', '/api/v4/reservations', { ticket_id: ticketId, quantity: 1, start_at: warm(0) }, bearer(token));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await n.send('DELETE', `/api/v4/reservations/${r.body.reservation.reservation_token}`, null, bearer(token));
  }
  return { nodes: started, token };
}

/** `count` reservations at once, alternating between the nodes; how many were granted. */
async function burst(p: { nodes: Node[]; token: string }, count: number, quantity: number, at: (i: number) => string) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      p.nodes[i % 2]!.send('POST', '/api/v4/reservations', { ticket_id: ticketId, quantity, start_at: at(i) }, bearer(p.token)),
    ),
  );
  // Refused by the limit, or (without the lock) by the slot running full.
  for (const a of answers) if (a.status !== 201) assert.ok(['HOLD_LIMIT_EXCEEDED', 'SLOT_SOLD_OUT'].includes(a.body?.code), JSON.stringify(a.body));
  return answers.filter((a) => a.status === 201).length;
}

/** The share burst: 40 reservations of 10 on one slot of 40; the limit grants one. */
const shareBurst = (p: { nodes: Node[]; token: string }) => {
  const slot = freshDay()(2);
  return burst(p, 40, 10, () => slot);
};
/** The count burst, from no live hold: 30 reservations of 1 on 15 slots of a fresh day; the limit grants 5. */
const countBurst = async (p: { nodes: Node[]; token: string }) => {
  await releaseAll();
  const at = freshDay();
  return burst(p, 30, 1, (i) => at(i % 15));
};

/** Ends every hold, so the next burst starts from none. */
async function releaseAll() {
  await db.pool.query(`update reservations set released_at = now() where released_at is null`);
  await db.pool.query(`update capacity_allocations set released_at = now() where released_at is null and reservation_id is not null`);
}

describe('hold limits on two nodes', () => {
  test('a burst of one account stays within the share and the count', async () => {
    const p = await pair(false);
    for (let round = 0; round < repeat(1, 2); round++) {
      assert.equal(await shareBurst(p), 1, `round ${round}: more than 10 of 40 places held`);
      assert.equal(await countBurst(p), 5, `round ${round}: more than 5 live holds`);
      await releaseAll();
    }
  });

  test('control: without the account lock the same bursts exceed the limits', async () => {
    const p = await pair(true);
    let share = 0;
    let count = 0;
    // Bounded retries: the race is near-certain with bursts this size, but timing-dependent.
    for (let round = 0; round < 5 && (share <= 1 || count <= 5); round++) {
      share = Math.max(share, await shareBurst(p));
      count = Math.max(count, await countBurst(p));
      await releaseAll();
    }
    assert.ok(share > 1, `without the lock only ${share} reservation(s) of 10 granted: the test would not catch the race`);
    assert.ok(count > 5, `without the lock only ${count} holds granted: the test would not catch the race`);
  });
});
