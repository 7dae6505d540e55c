import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
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

const anna = { name: 'Anna', surname: 'Müller', email: 'anna@example.org' };
const post = (token: string | undefined, payload: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: '/api/v4/customers', ...(token ? { token } : {}), payload: payload as object, headers });
const count = async () => (await t.database.db.select().from(customers)).length;

describe('POST /api/v4/customers', () => {
  test('creates a customer (bare or wrapped body) with every field in the answer', async () => {
    const res = await post(user, {
      customer: {
        ...anna,
        foreign_id: 'crm-1',
        salutation: 'Frau',
        title: 'Dr.',
        phone: '+49 30 1234567',
        institution: 'Gymnasium',
        street: 'Hauptstr. 1',
        zip: 10115,
        city: 'Berlin',
        country: 'de',
        locale: 'de',
        unknown_field: 'ignored',
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const c = res.json().customer;
    assert.equal(typeof c.id, 'number');
    assert.deepEqual(
      { ...c, id: 0, created_at: '', updated_at: '' },
      {
        id: 0,
        foreign_id: 'crm-1',
        salutation: 'Frau',
        title: 'Dr.',
        name: 'Anna',
        surname: 'Müller',
        email: 'anna@example.org',
        phone: '+49 30 1234567',
        institution: 'Gymnasium',
        street: 'Hauptstr. 1',
        zip: '10115',
        city: 'Berlin',
        country: 'DE',
        locale: 'de',
        created_at: '',
        updated_at: '',
      },
    );
    assert.match(c.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);
    assert.equal(res.headers['idempotent-replayed'], undefined);

    const bare = await post(reseller, { ...anna, tel: '030 555 111' });
    assert.equal(bare.statusCode, 201);
    assert.equal(bare.json().customer.phone, '030 555 111');
    assert.equal(bare.json().customer.foreign_id, null);
  });

  test('each validation message, and nothing is written', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ["Name can't be blank", "Surname can't be blank", "Email can't be blank"]],
      [{ ...anna, name: '  ' }, ["Name can't be blank"]],
      [{ ...anna, surname: null }, ["Surname can't be blank"]],
      [{ ...anna, email: '' }, ["Email can't be blank"]],
      [{ ...anna, email: 'anna@' }, ['Email is invalid']],
      [{ ...anna, email: 'anna example.org' }, ['Email is invalid']],
      [{ ...anna, phone: '1234' }, ['Phone is too short (minimum is 5 characters)']],
      [{ ...anna, phone: 'call me maybe' }, ['Phone is invalid']],
      [{ ...anna, country: 'Germany' }, ['Country is not an ISO 3166-1 alpha-2 country code']],
      [{ ...anna, country: 'XK' }, ['Country is not an ISO 3166-1 alpha-2 country code']],
      [{ ...anna, name: 'x'.repeat(256) }, ['Name is too long (maximum is 255 characters)']],
      [{ ...anna, zip: '1'.repeat(21) }, ['Zip is too long (maximum is 20 characters)']],
      [{ ...anna, foreign_id: 'f'.repeat(256) }, ['Foreign id is too long (maximum is 255 characters)']],
      [{ ...anna, locale: 'german' }, ['Locale is invalid']],
      [{ ...anna, city: 'Ber\u0000lin' }, ['City is invalid']],
    ];
    for (const [body, errors] of cases) {
      const res = await post(user, { customer: body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      const json = res.json();
      assert.equal(json.error, 'customer could not be saved');
      assert.deepEqual(json.errors, errors, JSON.stringify(body));
      assert.equal(json.code, 'VALIDATION_FAILED');
    }
    // Wrong JSON types are refused by the schema, still 422 and still nothing written.
    const typed = await post(user, { ...anna, email: { a: 1 } });
    assert.equal(typed.statusCode, 422);
    assert.equal(await count(), before);
  });

  test('token classes: anonymous 401, public 403, user without customers:write 403', async () => {
    assert.equal((await post(undefined, anna)).statusCode, 401);
    assert.equal((await post(publicToken, anna)).statusCode, 403);
    assert.equal((await post(reader, anna)).statusCode, 403);
    assert.equal((await post(ordersOnly, anna)).statusCode, 403);
  });

  test('a known foreign_id with the same content replays (200 + header); different content is 422', async () => {
    const first = await post(reseller, { ...anna, foreign_id: 'replay-1', phone: '0301234' });
    assert.equal(first.statusCode, 201);
    const again = await post(reseller, { ...anna, foreign_id: 'replay-1', phone: '0301234' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    const changed = await post(reseller, { ...anna, foreign_id: 'replay-1', email: 'other@example.org' });
    assert.equal(changed.statusCode, 422);
    assert.equal(changed.json().code, 'FOREIGN_ID_CONFLICT');
    // foreign_id is unique per account: another reseller may use the same key.
    const other = await post(otherReseller, { ...anna, foreign_id: 'replay-1' });
    assert.equal(other.statusCode, 201);
    assert.notEqual(other.json().customer.id, first.json().customer.id);
  });

  test('50 parallel POSTs with one foreign_id create exactly one customer', async () => {
    const body = { ...anna, foreign_id: 'parallel-1' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(reseller, body)));
    const statuses = answers.map((r) => r.statusCode).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 200).length, 49, statuses.join(','));
    assert.equal(new Set(answers.map((r) => r.json().customer.id)).size, 1);
    const rows = (await t.database.db.select().from(customers)).filter((c) => c.foreignId === 'parallel-1');
    assert.equal(rows.length, 1);
  });
});
