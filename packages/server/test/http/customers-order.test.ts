// resolveOrderCustomer: the customer part of order and request creation, called inside the
// caller's transaction. Exercised directly on the domain with the principals of real tokens.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { customers } from '../../src/db/schema/index.ts';
import { resolveToken } from '../../src/domain/accounts/resolveToken.ts';
import { loadInstanceId } from '../../src/app.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { resolveOrderCustomer, type OrderCustomerInput } from '../../src/domain/customers/resolveOrderCustomer.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
const instanceId = await loadInstanceId(t.database);

async function ctxFor(cls: 'user' | 'reseller'): Promise<Ctx> {
  const principal = await resolveToken(db, instanceId, await t.token(cls === 'user' ? { class: cls, rights: ['orders:write'] } : { class: cls }), t.clock.now());
  return { db, principal, clock: t.clock, config: t.config };
}
const reseller = await ctxFor('reseller');
const other = await ctxFor('reseller');
const user = await ctxFor('user');

const resolve = (ctx: Ctx, input: OrderCustomerInput, parent?: string) =>
  db.transaction((tx) => resolveOrderCustomer(tx, ctx, input, parent ? { parent } : {}));
const all = () => db.select().from(customers);
const anna = { name: 'Anna', surname: 'Müller', email: 'anna@example.org' };

async function rejects(p: Promise<unknown>, code: string, message: string, errors?: string[]) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, code);
    assert.equal(err.message, message);
    if (errors) assert.deepEqual(err.errors, errors);
    return true;
  });
}

describe('resolveOrderCustomer', () => {
  test('no customer named → null', async () => {
    assert.equal(await resolve(reseller, {}), null);
    assert.equal(await resolve(reseller, { customer: null as unknown as undefined }), null);
  });

  test('an embedded customer is created for the caller\'s account', async () => {
    const id = await resolve(reseller, { customer: { ...anna, phone: '030 99887766', foreign_id: 'emb-1' } });
    const [row] = await db.select().from(customers).where(eq(customers.id, id!));
    assert.equal(row!.accountId, (reseller.principal as { accountId: number }).accountId);
    assert.equal(row!.phone, '030 99887766');
  });

  test('embedded validation is POST\'s, with prefixed messages, and writes nothing', async () => {
    const before = (await all()).length;
    await rejects(resolve(reseller, { customer: { name: 'Anna', phone: '123' } }), 'VALIDATION_FAILED', 'order could not be saved', [
      "Customer surname can't be blank",
      "Customer email can't be blank",
      'Customer phone is too short (minimum is 5 characters)',
    ]);
    await rejects(resolve(reseller, { customer: { ...anna, email: 'x' } }, 'request'), 'VALIDATION_FAILED', 'request could not be saved', [
      'Customer email is invalid',
    ]);
    await rejects(resolve(reseller, { customer: 'Anna' }), 'VALIDATION_FAILED', 'order could not be saved', ['Customer is invalid']);
    await rejects(resolve(reseller, { customer: { ...anna, name: { first: 'A' } } }), 'VALIDATION_FAILED', 'order could not be saved', [
      'Customer name is invalid',
    ]);
    await rejects(resolve(reseller, { customer: anna, customer_id: 1 }), 'VALIDATION_FAILED', 'order could not be saved');
    assert.equal((await all()).length, before);
  });

  test('a known foreign_id of this account is reused, and updated with changed fields', async () => {
    const first = await resolve(reseller, { customer: { ...anna, foreign_id: 'emb-2' } });
    const same = await resolve(reseller, { customer: { ...anna, foreign_id: 'emb-2' } });
    assert.equal(same, first);
    const changed = await resolve(reseller, { customer: { ...anna, foreign_id: 'emb-2', city: 'Berlin', email: 'new@example.org' } });
    assert.equal(changed, first);
    const [row] = await db.select().from(customers).where(eq(customers.id, first!));
    assert.equal(row!.city, 'Berlin');
    assert.equal(row!.email, 'new@example.org');
    // Another account's identical key is a different customer.
    assert.notEqual(await resolve(other, { customer: { ...anna, foreign_id: 'emb-2' } }), first);
  });

  test('customer_id: id or foreign_id, visible to the caller, else NOT_FOUND', async () => {
    const id = (await resolve(reseller, { customer: { ...anna, foreign_id: 'ref-1' } }))!;
    assert.equal(await resolve(reseller, { customer_id: id }), id);
    assert.equal(await resolve(reseller, { customer_id: String(id) }), id);
    assert.equal(await resolve(reseller, { customer_id: 'ref-1' }), id);
    assert.equal(await resolve(user, { customer_id: id }), id, 'users see every customer');
    await rejects(resolve(other, { customer_id: id }), 'NOT_FOUND', 'customer not found');
    await rejects(resolve(reseller, { customer_id: 'never' }), 'NOT_FOUND', 'customer not found');
    await rejects(resolve(reseller, { customer_id: 99_999_999 }), 'NOT_FOUND', 'customer not found');
  });

  test('a failure later in the order transaction rolls the new customer back', async () => {
    const before = (await all()).length;
    await assert.rejects(
      db.transaction(async (tx) => {
        await resolveOrderCustomer(tx, reseller, { customer: { ...anna, foreign_id: 'rolled-back' } });
        throw new Error('order failed');
      }),
      /order failed/,
    );
    assert.equal((await all()).length, before);
  });

  test('parallel orders embedding one new foreign_id end with one customer', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => resolve(reseller, { customer: { ...anna, foreign_id: 'race-1' } })));
    assert.equal(new Set(ids).size, 1);
    assert.equal((await all()).filter((c) => c.foreignId === 'race-1').length, 1);
  });
});
