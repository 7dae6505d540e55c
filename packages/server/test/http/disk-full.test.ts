// A full disk is an outage, not a bug: POST /orders answers 503 SERVICE_UNAVAILABLE with a
// sentence and Retry-After when PostgreSQL cannot write (SQLSTATE 53100) or our own write fails
// with ENOSPC, stores nothing, and logs the cause as an error for the operator.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { zonedInstant } from '../../src/domain/time.ts';
import { assertError } from '../contract/error-shape.ts';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
t.app.post('/test/enospc', async () => {
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
});
await t.app.ready();

let ticketId: number;
let reseller: string;
const day = f.localDate(5);
const count = async () => (await db.execute<{ n: number }>(sql`select count(*)::int n from orders`)).rows[0]!.n;

before(async () => {
  const m = await f.museum(db);
  const q = await f.quota(db, { museumId: m.id, capacity: 10 });
  ticketId = (await f.ticket(db, { museumId: m.id, quotaIds: [q.id], priceCents: 1400 })).id;
  reseller = await t.token({ class: 'reseller', museumIds: [m.id] });
});

const order = () => t.request({
  method: 'POST', url: '/api/v4/orders', token: reseller,
  payload: { order: { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticketId, quantity: 1, time: zonedInstant(day, 600, 'Europe/Berlin').toISOString() } }] } },
});

test('POST /orders on a full database disk (SQLSTATE 53100) is a 503 with a sentence, and stores nothing', async () => {
  assert.equal((await order()).statusCode, 201, 'control: the order works while there is room');
  const before = await count();
  // What PostgreSQL raises when it cannot extend a table's file.
  await db.execute(sql.raw(`
    create function test_disk_full() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file "base/16384/16999": No space left on device' using errcode = '53100'; end $$;
    create trigger test_disk_full before insert on orders for each row execute function test_disk_full()`));
  try {
    const res = await order();
    const body = assertError(res, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(body.error, 'the server is out of disk space, so nothing was stored; retry later');
    assert.equal(res.headers['retry-after'], '60');
    assert.doesNotMatch(res.body, /base\/16384|extend file/, 'no database detail');
    assert.equal(await count(), before);
  } finally {
    await db.execute(sql.raw('drop trigger test_disk_full on orders; drop function test_disk_full()'));
  }
  assert.equal((await order()).statusCode, 201, 'and works again once there is room');
});

test('ENOSPC from our own write is the same 503', async () => {
  const res = await t.request({ method: 'POST', url: '/test/enospc', payload: {} });
  const body = assertError(res, 503, 'SERVICE_UNAVAILABLE');
  assert.match(String(body.error), /out of disk space/);
});
