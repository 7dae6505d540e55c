// Upload limits: a per-account storage quota and a free-space floor on the
// data directory's volume. Uploads past either get 507 with a clear code, nothing is stored,
// everything else keeps working, and uploads work again once space is freed (no restart).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import { catalogue, finalizedOrder, pngBytes } from '../jobs/support.ts';
import { freeBytes } from '../../src/domain/documents/storage.ts';

const png = (n: number) => Buffer.concat([pngBytes(), Buffer.alloc(n - pngBytes().length, 7)]);

async function setup(t: TestApp) {
  const c = await catalogue(t.database.db);
  const token = await t.token({ class: 'reseller' });
  const order = await finalizedOrder(t, token, c);
  const upload = (bytes: Buffer, as = token, orderId = order.id) =>
    t.request({ method: 'POST', url: '/api/v4/documents', token: as, payload: { order_id: orderId, filename: 'a.png', content_type: 'image/png', content_base64: bytes.toString('base64') } });
  return { c, token, order, upload };
}
const attachments = async (t: TestApp) =>
  (await t.database.db.execute<{ n: number }>(sql`select count(*)::int n from documents where kind = 'attachment'`)).rows[0]!.n;

describe('per-account storage quota', async () => {
  const t = await testApp({ env: { ATRIUM_UPLOAD_QUOTA_BYTES: '1000' } });
  after(() => t.close());
  const s = await setup(t);

  test('uploads count against the order owner; past the quota 507 STORAGE_QUOTA_EXCEEDED, nothing stored', async () => {
    assert.equal((await s.upload(png(400))).statusCode, 202);
    assert.equal((await s.upload(png(400))).statusCode, 202);
    const before = await attachments(t);
    const res = await s.upload(png(400));
    assert.equal(res.statusCode, 507, res.body);
    assert.equal(res.json().code, 'STORAGE_QUOTA_EXCEEDED');
    assert.match(res.json().error, /800 bytes stored of 1000/);
    assert.equal(await attachments(t), before);
    assert.equal((await s.upload(png(200))).statusCode, 202, 'what still fits is accepted');
    // Another account has its own quota.
    const other = await t.token({ class: 'reseller' });
    const otherOrder = await finalizedOrder(t, other, s.c);
    assert.equal((await s.upload(png(400), other, otherOrder.id)).statusCode, 202);
  });

  test('rejected or purged uploads no longer count (their bytes are gone)', async () => {
    await t.database.db.execute(sql`update documents set content = null, status = 'rejected' where kind = 'attachment' and account_id = (select account_id from orders where id = ${s.order.id})`);
    assert.equal((await s.upload(png(900))).statusCode, 202);
  });

  test('parallel uploads cannot overshoot the quota together', async () => {
    const t2 = await testApp({ env: { ATRIUM_UPLOAD_QUOTA_BYTES: '1000' } });
    try {
      const s2 = await setup(t2);
      const answers = await Promise.all(Array.from({ length: 10 }, () => s2.upload(png(300))));
      const codes = answers.map((r) => r.statusCode).sort();
      assert.deepEqual(codes, [202, 202, 202, 507, 507, 507, 507, 507, 507, 507], codes.join(','));
    } finally {
      await t2.close();
    }
  });
});

describe('free-space floor of the data volume', () => {
  test('below the floor uploads get 507 STORAGE_FULL with Retry-After; freeing space makes them work again without a restart', async (ctx) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-floor-'));
    const filler = path.join(dir, 'filler');
    const free0 = await freeBytes(dir);
    if (free0 === null || free0 < 4 * 1024 ** 3) return ctx.skip('needs 4 GiB free in the temp directory');
    const FILL = 512 * 1024 ** 2;
    // A real file takes real space (fallocate semantics via a written buffer, 8 MiB at a time).
    const fd = fs.openSync(filler, 'w');
    const chunk = Buffer.alloc(8 * 1024 ** 2, 1);
    for (let written = 0; written < FILL; written += chunk.length) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const free1 = (await freeBytes(dir))!;
    // The floor sits halfway through the filler: above what is free now, below what is free
    // once the filler is gone, with 256 MiB of slack for other writers on the machine.
    const floor = free1 + FILL / 2;
    const t = await testApp({ env: { ATRIUM_DATA_DIR: dir, ATRIUM_UPLOAD_MIN_FREE_BYTES: String(floor) } });
    try {
      const s = await setup(t);
      const before = await attachments(t);
      const res = await s.upload(png(100));
      assert.equal(res.statusCode, 507, res.body);
      assert.equal(res.json().code, 'STORAGE_FULL');
      assert.match(res.json().error, /low on storage/);
      assert.equal(res.headers['retry-after'], '300');
      assert.equal(await attachments(t), before);
      const reads = await t.request({ method: 'GET', url: `/api/v4/orders/${s.order.id}`, token: s.token });
      assert.equal(reads.statusCode, 200, 'everything else keeps working');

      fs.rmSync(filler);
      const again = await s.upload(png(100));
      assert.equal(again.statusCode, 202, again.body);
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('freeBytes reads the nearest existing ancestor of a missing directory', async () => {
    const free = await freeBytes(path.join(os.tmpdir(), 'does', 'not', 'exist'));
    assert.ok(free !== null && free > 0);
  });
});
