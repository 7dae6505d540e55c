// The console's order search finds people as staff type them: ü/ue, ö/oe, ä/ae, ß/ss, accents and
// apostrophes folded by one SQL function (src/db/sql/atrium_search_text.sql), "Surname, Name"
// order, and the start of an order number or a barcode; hits carry the visit and the status.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { customers, orders } from '../../src/db/schema/index.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { searchOrders } from '../../src/domain/orders/searchOrders.ts';
import { entryFixture, type EntryFixture } from '../entry/support.ts';

let x: EntryFixture;
const ids: Record<string, number> = {};
const codes: Record<string, string> = {};
before(async () => {
  x = await entryFixture();
  const db = x.t.database.db;
  const [acc] = (await db.execute<{ account_id: number }>(sql`select account_id from orders order by id desc limit 1`)).rows;
  const people: Array<[string, string]> = [['Anna', 'Müller'], ['Peter', 'Weiß'], ['Jonas', 'Schröder'], ["Siobhán", "O'Brien"], ['Anna', 'Mayer']];
  for (const [name, surname] of people) {
    const { orderId, codes: c } = await x.buySlot(1, 660);
    const accountId = acc?.account_id ?? (await db.select({ a: orders.accountId }).from(orders).where(eq(orders.id, orderId)))[0]!.a;
    const [cu] = await db.insert(customers).values({ accountId, name, surname, email: `${surname.replace(/\W/g, '')}@example.org` }).returning();
    await db.update(orders).set({ customerId: cu!.id }).where(eq(orders.id, orderId));
    ids[surname] = orderId;
    codes[surname] = c[0]!;
  }
});
after(() => x.t.close());

const find = async (q: string) => (await searchOrders(systemCtx({ db: x.t.database.db, clock: x.t.clock, config: x.t.config }), { q })).map((h) => h.id);

test('common spellings find the person', async () => {
  for (const [q, who] of [['mueller', 'Müller'], ['Müller', 'Müller'], ['weiss', 'Weiß'], ['WEISS', 'Weiß'], ['schroeder', 'Schröder'], ['obrien', "O'Brien"], ["o'brien", "O'Brien"], ['siobhan', "O'Brien"]] as const) {
    assert.deepEqual(await find(q), [ids[who]], q);
  }
  // Controls: a different name is not folded onto these.
  assert.deepEqual(await find('muller'), []);
  assert.deepEqual(await find('weis'), [ids['Weiß']]);
});

test('"Surname, Name" and "Name Surname" find the one person, not the namesake', async () => {
  assert.deepEqual(await find('Müller, Anna'), [ids['Müller']]);
  assert.deepEqual(await find('mueller, anna'), [ids['Müller']]);
  assert.deepEqual(await find('Anna Mueller'), [ids['Müller']]);
  assert.deepEqual(await find('Mueller Anna'), [ids['Müller']]);
  assert.deepEqual((await find('Anna')).sort(), [ids['Müller'], ids['Mayer']].sort());
});

test('the start of an order number or a barcode; hits show visit and status', async () => {
  const id = ids['Schröder']!;
  const code = codes['Schröder']!.replace('-', '');
  assert.ok((await find(code.slice(0, 10))).includes(id));
  const hits = await searchOrders(systemCtx({ db: x.t.database.db, clock: x.t.clock, config: x.t.config }), { q: String(id) });
  const hit = hits.find((h) => h.id === id)!;
  assert.equal(hit.status, 'finalized');
  assert.equal(hit.visitAt?.toISOString(), x.at(660).toISOString());
  if (String(id).length >= 4) assert.ok((await find(String(id).slice(0, 3))).includes(id));
});

test('the API customer list uses the same rule (?name=)', async () => {
  const names = async (q: string) => {
    const r = await x.t.request({ method: 'GET', url: `/api/v4/customers?name=${encodeURIComponent(q)}`, token: x.user });
    assert.equal(r.statusCode, 200, r.body);
    return r.json().customers.map((c: { surname: string }) => c.surname).sort();
  };
  assert.deepEqual(await names('mueller'), ['Müller']);
  assert.deepEqual(await names('Müller, Anna'), ['Müller']);
  assert.deepEqual(await names('obrien'), ["O'Brien"]);
  assert.deepEqual(await names('anna'), ['Mayer', 'Müller']);
  assert.deepEqual(await names('schroder'), []);
});
