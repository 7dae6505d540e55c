// One gift card spent by many orders at once through two server processes on one database: the
// card's balance never goes below zero and every cent taken is one ledger entry and one payment,
// because the debit is one conditional update guarded by a check (src/db/repositories/giftCards.ts).
// The control run sends the same requests to nodes that debit by writing the balance they read
// (ctx.testing.disableGiftCardGuard) and must see more money taken than the card held, which
// shows that the test catches the race.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { addDays, localDateOf, zonedInstant } from '../../src/domain/time.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { bearer, type Node } from './nodes.ts';
import { startTestNode } from './test-node.ts';

const db = await freshDatabase();
const nodes: Node[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await db.drop();
});

const museumId = (await f.museum(db.db)).id;
const quotaId = (await f.quota(db.db, { museumId, capacity: 500 })).id;
const ticketId = (await f.ticket(db.db, { museumId, quotaIds: [quotaId] })).id;
const { token } = await createToken({ db: db.db, clock: systemClock }, { class: 'user', name: 'desk', museumIds: [], rights: ['*'] });
const date = addDays(localDateOf(new Date(), 'Europe/Berlin'), 5);
const RACERS = 16;
const CARD = 1000;
const EACH = 300;

async function round(pair: Node[], slot: number) {
  const issued = await pair[0]!.send('POST', '/api/v4/gift_cards', { amount_cents: CARD }, bearer(token));
  assert.equal(issued.status, 201, JSON.stringify(issued.body));
  const { id, code } = issued.body.gift_card as { id: number; code: string };
  const orders: number[] = [];
  for (let i = 0; i < RACERS; i++) {
    const time = zonedInstant(date, 600 + 30 * ((slot + i) % 8), 'Europe/Berlin').toISOString();
    const o = await pair[i % 2]!.send('POST', '/api/v4/orders', { items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time } }] }, bearer(token));
    assert.equal(o.status, 201, JSON.stringify(o.body));
    orders.push(o.body.order.id);
  }
  const answers = await Promise.all(orders.map((o, i) => pair[i % 2]!.send('POST', `/api/v4/orders/${o}/payments/gift_card`, { code, amount_cents: EACH }, bearer(token))));
  const ok = answers.filter((a) => a.status === 201).length;
  const refused = answers.filter((a) => a.status === 422 && a.body.code === 'CODE_EXHAUSTED').length;
  const card = (await db.db.execute<{ balance_cents: number }>(sql`select balance_cents from gift_cards where id = ${id}`)).rows[0]!;
  const taken = Number((await db.db.execute<{ s: string }>(sql`select coalesce(sum(amount_cents), 0) s from payments where provider = 'gift_card' and provider_ref like ${`gc_${id}_%`}`)).rows[0]!.s);
  const ledger = Number((await db.db.execute<{ s: string }>(sql`select coalesce(sum(amount_cents), 0) s from gift_card_ledger where gift_card_id = ${id} and kind = 'redeemed'`)).rows[0]!.s);
  return { ok, refused, balance: card.balance_cents, taken, ledger, statuses: answers.map((a) => a.status) };
}

async function pairOf(unguarded: boolean): Promise<Node[]> {
  const env = { DATABASE_URL: db.url, GIFT_CARD_UNGUARDED: unguarded ? '1' : '0', ATRIUM_USER_RATE_LIMIT: '0' };
  const started = await Promise.all([startTestNode(env), startTestNode(env)]);
  nodes.push(...started);
  return started;
}

describe('one gift card, many orders, two processes', () => {
  test(`${RACERS} payments of ${EACH} at once from a card of ${CARD}: exactly ${Math.floor(CARD / EACH)} taken, never below zero`, async () => {
    const pair = await pairOf(false);
    const r = await round(pair, 0);
    assert.equal(r.ok, Math.floor(CARD / EACH), JSON.stringify(r));
    assert.equal(r.refused, RACERS - r.ok, JSON.stringify(r));
    assert.equal(r.taken, r.ok * EACH);
    assert.equal(r.ledger, -r.taken);
    assert.equal(r.balance, CARD - r.taken);
    assert.ok(r.balance >= 0);
    await Promise.all(pair.map((n) => n.stop()));
  });

  test('control run with the guard off: the same requests take more than the card held', async () => {
    const pair = await pairOf(true);
    let worst = { taken: 0 } as Awaited<ReturnType<typeof round>>;
    for (let i = 0; i < 3 && worst.taken <= CARD; i++) worst = await round(pair, 4 * (i + 1));
    assert.ok(worst.taken > CARD, `expected an overspend without the guard, got ${JSON.stringify(worst)}`);
    await Promise.all(pair.map((n) => n.stop()));
  });
});
