import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/client.ts';
import { customers, idempotencyKeys } from '../../src/db/schema/index.ts';
import { completeIdempotencyKey } from '../../src/domain/idempotency/completeIdempotencyKey.ts';
import { requestHash } from '../../src/domain/idempotency/internal.ts';
import { testApp, TEST_SCHEMAS } from '../helpers/app.ts';

const t = await testApp();
// A second application with its own connection pool on the same database stands in for a second
// server process behind the load balancer: all idempotency state must live in PostgreSQL.
const secondDb = openDatabase(t.database.url, { max: 10 });
const second = await buildApp({ database: secondDb, config: t.config, clock: t.clock, logger: false, ...TEST_SCHEMAS });
after(async () => {
  await second.close();
  await secondDb.close();
  await t.close();
});

const user = await t.token({ class: 'user', rights: ['customers:write'] });
const reseller = await t.token({ class: 'reseller' });
const publicToken = await t.token({ class: 'public' });

const anna = { name: 'Anna', surname: 'Müller', email: 'anna@example.org' };
const post = (token: string | undefined, key: string | undefined, payload: object, app = t.app) =>
  app.inject({
    method: 'POST',
    url: '/api/v4/customers',
    payload,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(key !== undefined ? { 'idempotency-key': key } : {}) },
  });
const count = async () => (await t.database.db.select().from(customers)).length;
const keyRows = async (key: string) =>
  t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

describe('Idempotency-Key', () => {
  test('the first answer is stored and replayed with Idempotent-Replayed: true', async () => {
    const first = await post(user, 'key-1', anna);
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const before = await count();
    const again = await post(user, 'key-1', { ...anna });
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.match(String(again.headers['content-type']), /application\/json/);
    assert.equal(again.body, first.body);
    assert.equal(await count(), before, 'the replay created nothing');
    // Key order inside the body does not make a different request.
    const reordered = await post(user, 'key-1', { email: anna.email, surname: anna.surname, name: anna.name });
    assert.equal(reordered.statusCode, 201);
    assert.equal(reordered.headers['idempotent-replayed'], 'true');
  });

  test('the same key with another body or path is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await post(user, 'key-2', anna);
    const before = await count();
    const other = await post(user, 'key-2', { ...anna, name: 'Berta' });
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
    const put = await t.request({ method: 'PUT', url: '/api/v4/customers/1', token: user, payload: anna, headers: { 'idempotency-key': 'key-2' } });
    assert.equal(put.statusCode, 422);
    assert.equal(put.json().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await count(), before);
  });

  test('keys are per account', async () => {
    const a = await post(user, 'shared-key', anna);
    const b = await post(reseller, 'shared-key', { ...anna, name: 'Berta' });
    assert.equal(a.statusCode, 201);
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], undefined);
    assert.notEqual(a.json().customer.id, b.json().customer.id);
  });

  test('a 422 answer is replayed as 422, domain and schema failures alike', async () => {
    const bad = await post(user, 'key-422', { name: 'Anna' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().errors, ["Surname can't be blank", "Email can't be blank"]);
    const again = await post(user, 'key-422', { name: 'Anna' });
    assert.equal(again.statusCode, 422);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json().errors, bad.json().errors);

    const typed = await post(user, 'key-422-schema', { ...anna, email: { not: 'a string' } });
    assert.equal(typed.statusCode, 422);
    const typedAgain = await post(user, 'key-422-schema', { ...anna, email: { not: 'a string' } });
    assert.equal(typedAgain.statusCode, 422);
    assert.equal(typedAgain.headers['idempotent-replayed'], 'true');
  });

  test('50 parallel POSTs with one key over two servers: exactly one customer, the rest replay or get 409', async () => {
    const before = await count();
    const body = { ...anna, name: 'Parallel' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(reseller, 'parallel-key', body, i % 2 ? second : t.app)),
    );
    const created = answers.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    const replayed = answers.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === 'true');
    const busy = answers.filter((r) => r.statusCode === 409);
    assert.equal(created.length, 1, answers.map((r) => r.statusCode).join(','));
    assert.equal(created.length + replayed.length + busy.length, 50);
    for (const r of replayed) assert.equal(r.body, created[0]!.body);
    for (const r of busy) {
      assert.equal(r.json().code, 'IDEMPOTENCY_IN_FLIGHT');
      assert.equal(r.headers['retry-after'], '1');
    }
    assert.equal(await count(), before + 1);
    // Once done, every retry replays.
    const later = await post(reseller, 'parallel-key', body, second);
    assert.equal(later.headers['idempotent-replayed'], 'true');
    assert.equal(later.body, created[0]!.body);
  });

  test('after 24 hours the key is free again: the request runs again', async () => {
    const first = await post(user, 'key-ttl', anna);
    t.clock.advance(23 * 3600_000);
    assert.equal((await post(user, 'key-ttl', anna)).headers['idempotent-replayed'], 'true');
    t.clock.advance(2 * 3600_000);
    const before = await count();
    const later = await post(user, 'key-ttl', anna);
    assert.equal(later.statusCode, 201);
    assert.equal(later.headers['idempotent-replayed'], undefined);
    assert.notEqual(later.json().customer.id, first.json().customer.id);
    assert.equal(await count(), before + 1);
    // An expired key may even be used for a different request.
    t.clock.advance(25 * 3600_000);
    assert.equal((await post(user, 'key-ttl', { ...anna, name: 'Other' })).statusCode, 201);
  });

  test('a request in flight answers 409; an abandoned claim of the same request is taken over after its lease', async () => {
    const accountId = (await keyRows('key-1'))[0]!.accountId; // the user account
    const now = t.clock.now();
    await t.database.db.insert(idempotencyKeys).values({
      accountId,
      key: 'key-stuck',
      requestHash: requestHash('POST', '/api/v4/customers', anna),
      state: 'in_flight',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 24 * 3600_000),
    });
    const busy = await post(user, 'key-stuck', anna);
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.json().code, 'IDEMPOTENCY_IN_FLIGHT');
    assert.equal(busy.headers['retry-after'], '1');
    t.clock.advance(3 * 60_000);
    const taken = await post(user, 'key-stuck', anna);
    assert.equal(taken.statusCode, 201);
    assert.equal(taken.headers['idempotent-replayed'], undefined);
  });

  test('transient answers (5xx, 409, 429, Retry-After) release the key; final ones are kept', async () => {
    const ctx = { db: t.database.db };
    const acct = (await keyRows('key-1'))[0];
    for (const [status, headers, kept] of [
      [503, {}, false],
      [500, {}, false],
      [409, {}, false],
      [429, {}, false],
      [422, { 'retry-after': '1' }, false],
      [422, {}, true],
      [404, {}, true],
      [204, {}, true],
    ] as const) {
      const key = `transient-${status}-${kept}`;
      const claimedAt = t.clock.now();
      const claim = { accountId: acct!.accountId, key, requestHash: 'h', claimedAt };
      await t.database.db.insert(idempotencyKeys).values({
        accountId: claim.accountId,
        key,
        requestHash: 'h',
        state: 'in_flight',
        createdAt: claimedAt,
        expiresAt: new Date(claimedAt.getTime() + 1e7),
      });
      await completeIdempotencyKey(ctx, claim, { status, body: '{}', headers });
      const rows = await t.database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.key, key)));
      assert.equal(rows.length, kept ? 1 : 0, `${status}`);
      if (kept) assert.equal(rows[0]!.state, 'completed');
    }
  });

  test('invalid keys are 422 and change nothing', async () => {
    const before = await count();
    for (const key of ['', 'x'.repeat(256), 'has space', 'umlaut-ä']) {
      const res = await post(user, key, anna);
      assert.equal(res.statusCode, 422, JSON.stringify(key));
      assert.match(res.json().error, /Idempotency-Key/);
    }
    assert.equal((await post(user, 'x'.repeat(255), anna)).statusCode, 201);
    assert.equal(await count(), before + 1);
  });

  test('refused callers store nothing; GET ignores the header', async () => {
    assert.equal((await post(undefined, 'anon-key', anna)).statusCode, 401);
    assert.equal((await post(publicToken, 'public-key', anna)).statusCode, 403);
    assert.equal((await keyRows('anon-key')).length + (await keyRows('public-key')).length, 0);
    const get = await t.request({ method: 'GET', url: '/api/v4/customers', token: user, headers: { 'idempotency-key': 'get-key' } });
    assert.notEqual(get.statusCode, 409);
    assert.equal((await keyRows('get-key')).length, 0);
  });
});
