import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { customers } from '../../src/db/schema/index.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());

const user = await t.token({ class: 'user', rights: ['customers:write'] });
const reader = await t.token({ class: 'user', rights: ['customers:read'] });
const ordersOnly = await t.token({ class: 'user', rights: ['orders:write'] });
const reseller = await t.token({ class: 'reseller' });
const otherReseller = await t.token({ class: 'reseller' });
const publicToken = await t.token({ class: 'public' });

const anna = { name: 'Anna', surname: 'Müller', email: 'Anna@Example.org' };
async function create(token: string, body: object) {
  const res = await t.request({ method: 'POST', url: '/api/v4/customers', token, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().customer as Record<string, unknown> & { id: number };
}
const put = (token: string | undefined, url: string, payload: object) =>
  t.request({ method: 'PUT', url: `/api/v4${url}`, ...(token ? { token } : {}), payload });
const get = (token: string | undefined, url: string) => t.request({ method: 'GET', url: `/api/v4${url}`, ...(token ? { token } : {}) });
const row = async (id: number) => (await t.database.db.select().from(customers).where(eq(customers.id, id)))[0]!;

const mine = await create(reseller, { ...anna, foreign_id: 'sf-100', phone: '030 1234' });
const numericKey = await create(reseller, { ...anna, name: 'Zahl', foreign_id: '424242' });
const theirs = await create(otherReseller, { ...anna, name: 'Other', foreign_id: 'sf-100' });
const staff = await create(user, { ...anna, name: 'Staff', foreign_id: 'staff-1' });

describe('PUT /api/v4/customers (by foreign_id in the body)', () => {
  test('changes only the given fields and keeps the rest', async () => {
    t.clock.advance(60_000);
    const res = await put(reseller, '/customers', { customer: { foreign_id: 'sf-100', city: 'Berlin', phone: null } });
    assert.equal(res.statusCode, 200, res.body);
    const c = res.json().customer;
    assert.equal(c.id, mine.id);
    assert.equal(c.city, 'Berlin');
    assert.equal(c.phone, null, 'null clears an optional field');
    assert.equal(c.name, 'Anna');
    assert.equal(c.created_at, mine.created_at);
    assert.notEqual(c.updated_at, mine.updated_at);
    // The same foreign_id of another account is not touched.
    assert.equal((await row(theirs.id)).city, null);
  });

  test('without foreign_id 422, unknown foreign_id 404 "customer not found"', async () => {
    const none = await put(reseller, '/customers', { city: 'Köln' });
    assert.equal(none.statusCode, 422);
    assert.deepEqual(none.json().errors, ["Foreign id can't be blank"]);
    const unknown = await put(reseller, '/customers', { foreign_id: 'nope', city: 'Köln' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'customer not found');
  });

  test('the merged record is validated; bad input changes nothing', async () => {
    const before = await row(mine.id);
    for (const [body, errors] of [
      [{ email: '' }, ["Email can't be blank"]],
      [{ name: null, phone: '12' }, ["Name can't be blank", 'Phone is too short (minimum is 5 characters)']],
      [{ email: 'nope', city: 'Hamburg' }, ['Email is invalid']],
    ] as const) {
      const res = await put(reseller, '/customers', { foreign_id: 'sf-100', ...body });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().error, 'customer could not be saved');
      assert.deepEqual(res.json().errors, errors);
    }
    assert.deepEqual(await row(mine.id), before);
  });
});

describe('PUT and GET /api/v4/customers/:id', () => {
  test('accept the numeric id and fall back to foreign_id', async () => {
    const byId = await get(reseller, `/customers/${mine.id}`);
    assert.equal(byId.statusCode, 200);
    assert.equal(byId.json().customer.foreign_id, 'sf-100');
    const byForeign = await get(reseller, '/customers/sf-100');
    assert.equal(byForeign.json().customer.id, mine.id);
    // A numeric-looking foreign_id that is no id is found as foreign_id.
    assert.equal((await get(reseller, '/customers/424242')).json().customer.id, numericKey.id);
    const upd = await put(reseller, '/customers/sf-100', { customer: { title: 'Dr.' } });
    assert.equal(upd.statusCode, 200);
    assert.equal(upd.json().customer.title, 'Dr.');
    const updById = await put(reseller, `/customers/${mine.id}`, { zip: 10115 });
    assert.equal(updById.json().customer.zip, '10115');
  });

  test('a new foreign_id already used in the account is 422 FOREIGN_ID_CONFLICT', async () => {
    const res = await put(reseller, `/customers/${numericKey.id}`, { foreign_id: 'sf-100' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'FOREIGN_ID_CONFLICT');
    assert.equal((await row(numericKey.id)).foreignId, '424242');
  });

  test('unknown ids and other accounts\' customers are 404 for resellers', async () => {
    for (const url of ['/customers/999999', '/customers/unknown-key', `/customers/${staff.id}`, '/customers/staff-1']) {
      const res = await get(reseller, url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error, 'customer not found');
    }
    assert.equal((await put(reseller, `/customers/${theirs.id}`, { city: 'X' })).statusCode, 404);
    assert.equal((await row(theirs.id)).city, null);
    // The other reseller finds its own record by the same foreign_id.
    assert.equal((await get(otherReseller, '/customers/sf-100')).json().customer.id, theirs.id);
  });

  test('user tokens see every customer; their own foreign_id wins', async () => {
    assert.equal((await get(reader, `/customers/${theirs.id}`)).statusCode, 200);
    assert.equal((await get(reader, '/customers/staff-1')).json().customer.id, staff.id);
    const upd = await put(user, `/customers/${theirs.id}`, { institution: 'Museum' });
    assert.equal(upd.statusCode, 200);
    assert.equal((await row(theirs.id)).institution, 'Museum');
  });

  test('token classes and rights', async () => {
    assert.equal((await get(undefined, `/customers/${mine.id}`)).statusCode, 401);
    assert.equal((await get(publicToken, `/customers/${mine.id}`)).statusCode, 403);
    assert.equal((await get(ordersOnly, `/customers/${mine.id}`)).statusCode, 403);
    assert.equal((await put(undefined, `/customers/${mine.id}`, { city: 'X' })).statusCode, 401);
    assert.equal((await put(publicToken, '/customers', { foreign_id: 'sf-100', city: 'X' })).statusCode, 403);
    assert.equal((await put(reader, `/customers/${mine.id}`, { city: 'X' })).statusCode, 403);
    assert.notEqual((await row(mine.id)).city, 'X');
  });
});

describe('GET /api/v4/customers', () => {
  test('resellers list only their own, users all, id ascending', async () => {
    const own = await get(reseller, '/customers');
    assert.equal(own.statusCode, 200);
    assert.deepEqual(
      own.json().customers.map((c: { id: number }) => c.id),
      [mine.id, numericKey.id],
    );
    assert.deepEqual(own.json().meta, { total_count: 2, page: 1, per_page: 25 });
    const all = await get(reader, '/customers');
    assert.equal(all.json().meta.total_count, 4);
  });

  test('filters foreign_id and email (case-insensitive), pagination with capped per_page', async () => {
    const byKey = await get(reader, '/customers?foreign_id=sf-100');
    assert.deepEqual(byKey.json().customers.map((c: { id: number }) => c.id).sort(), [mine.id, theirs.id].sort());
    const byMail = await get(reseller, '/customers?email=anna@example.ORG');
    assert.equal(byMail.json().meta.total_count, 2);
    const page2 = await get(reader, '/customers?per_page=3&page=2');
    assert.equal(page2.json().customers.length, 1);
    assert.deepEqual(page2.json().meta, { total_count: 4, page: 2, per_page: 3 });
    assert.equal((await get(reader, '/customers?per_page=500')).json().meta.per_page, 100);
    assert.equal((await get(reader, '/customers?per_page=abc')).statusCode, 422);
    assert.equal((await get(reader, '/customers?page=0')).statusCode, 422);
  });

  test('anonymous 401, public 403', async () => {
    assert.equal((await get(undefined, '/customers')).statusCode, 401);
    assert.equal((await get(publicToken, '/customers')).statusCode, 403);
  });
});
