// Expired Idempotency-Key answers are purged on a schedule: the purge
// existed but no job ran it, so the table only grew. The schedule is in src/jobs/cron.ts.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { CRON_ITEMS } from '../../src/jobs/cron.ts';
import { enqueue, TASKS } from '../../src/db/repositories/jobQueue.ts';
import { testApp } from '../helpers/app.ts';
import { testWorker, waitFor } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;

async function keys(): Promise<string[]> {
  const r = await db.execute<{ key: string }>(sql`select key from idempotency_keys order by key`);
  return r.rows.map((x) => x.key);
}

describe('idempotency key purge', () => {
  test('the purge is on the cron schedule and registered by a worker', async () => {
    const item = CRON_ITEMS.find((c) => c.task === TASKS.purgeIdempotencyKeys);
    assert.ok(item, 'the purge task is scheduled');
    const worker = await testWorker(t, { cron: true });
    try {
      const known = await waitFor('the crontab registration', async () => {
        const r = await db.execute<{ identifier: string }>(sql`select identifier from graphile_worker._private_known_crontabs`);
        return r.rows.some((x) => x.identifier === item.identifier) || null;
      });
      assert.equal(known, true);
    } finally {
      await worker.stop();
    }
  });

  test('the scheduled job deletes expired keys and keeps live ones', async () => {
    await t.token({ class: 'reseller' });
    const acc = await db.execute<{ id: number }>(sql`select id from accounts order by id desc limit 1`);
    const accountId = acc.rows[0]!.id;
    const now = t.clock.now();
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
    for (const [key, expires] of [['expired-a', at(-60)], ['expired-b', at(-1)], ['live', at(60)]] as const) {
      await db.execute(sql`insert into idempotency_keys (account_id, key, request_hash, state, created_at, expires_at)
        values (${accountId}, ${key}, 'h', 'done', ${at(-120)}, ${expires})`);
    }
    const worker = await testWorker(t);
    try {
      await enqueue(db, TASKS.purgeIdempotencyKeys, {});
      await waitFor('the purge', async () => ((await keys()).length === 1 ? true : null));
      assert.deepEqual(await keys(), ['live']);
    } finally {
      await worker.stop();
    }
  });
});
