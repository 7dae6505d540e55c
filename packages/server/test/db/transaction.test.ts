// The one transaction helper joins an outer transaction instead of opening a second one, and the
// one error mapper names Atrium's own SQLSTATEs and PostgreSQL's constraint violations.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { dbError, isDbError } from '../../src/db/errors.ts';
import { inTransaction, transaction } from '../../src/db/transaction.ts';
import { freshDatabase } from '../helpers/db.ts';

const database = await freshDatabase({ max: 2 });
after(() => database.drop());
const { db } = database;

test('a transaction joins the outer one: a failure after the inner write rolls both back', async () => {
  await db.execute(sql`create table tx_probe (v int)`);
  await assert.rejects(
    transaction(db, async (outer) => {
      assert.ok(inTransaction(outer));
      await transaction(outer, async (inner) => {
        assert.equal(inner, outer, 'the inner call runs on the outer transaction');
        await inner.execute(sql`insert into tx_probe values (1)`);
      });
      throw new Error('boom');
    }),
    /boom/,
  );
  const rows = await db.execute(sql`select count(*)::int as n from tx_probe`);
  assert.equal(rows.rows[0]!.n, 0);
  assert.equal(inTransaction(db), false);
});

test('the error mapper names custom SQLSTATEs and unique violations with their constraint', async () => {
  const custom = await db.execute(sql`do $$ begin raise exception 'sold out' using errcode = 'AT001'; end $$`).catch((e) => e);
  assert.equal(dbError(custom)?.kind, 'SOLD_OUT');
  await db.execute(sql`create table uq_probe (v int constraint uq_probe_v unique)`);
  await db.execute(sql`insert into uq_probe values (1)`);
  const dup = await db.execute(sql`insert into uq_probe values (1)`).catch((e) => e);
  assert.ok(isDbError(dup, 'UNIQUE_VIOLATION', 'uq_probe_v'));
  assert.equal(isDbError(dup, 'UNIQUE_VIOLATION', 'other'), false);
  assert.equal(dbError(new Error('not a database error')), undefined);
});
