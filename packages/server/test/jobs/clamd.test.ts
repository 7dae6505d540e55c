// Against a real ClamAV daemon (started by .ci/run with a one-signature database, see
// .ci/clamd.sh): the INSTREAM client and an upload scanned end to end. Skipped, visibly, when
// CLAMD_TEST_HOST is not set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { EICAR_TEST_FILE } from '../../src/scan/builtin.ts';
import { clamdInstream } from '../../src/scan/clamd.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { catalogue, documentStatus, finalizedOrder, pngBytes, testWorker, waitFor } from './support.ts';

const host = process.env.CLAMD_TEST_HOST;
const port = Number(process.env.CLAMD_TEST_PORT || 3310);
const skip = host ? false : 'CLAMD_TEST_HOST is not set: the clamd suite is skipped (.ci/run starts a clamd)';

describe(`clamd at ${host ?? '(none)'}:${port}`, { skip }, () => {
  let t: TestApp;
  let worker: Worker;
  before(async () => {
    t = await testApp({ env: { CLAMD_HOST: host!, CLAMD_PORT: String(port) } });
    worker = await testWorker(t);
  });
  after(async () => {
    await worker?.stop();
    await t?.close();
  });

  test('INSTREAM: clean bytes pass, EICAR (also past the first chunk) is found', async () => {
    assert.equal((await clamdInstream({ host: host!, port }, pngBytes())).clean, true);
    const v = await clamdInstream({ host: host!, port }, Buffer.concat([Buffer.alloc(200_000, 1), EICAR_TEST_FILE]));
    assert.equal(v.clean, false);
  });

  test('uploads are decided by clamd: EICAR rejected (410), a clean file served', async () => {
    const c = await catalogue(t.database.db);
    const reseller = await t.token({ class: 'reseller' });
    const o = await finalizedOrder(t, reseller, c);
    const send = (bytes: Buffer, name: string) =>
      t.request({ method: 'POST', url: '/api/v4/documents', token: reseller, payload: { order_id: o.id, filename: name, content_type: 'application/pdf', content_base64: bytes.toString('base64') } });
    const bad = (await send(Buffer.concat([Buffer.from('%PDF-1.4\n'), EICAR_TEST_FILE]), 'bad.pdf')).json().document.id;
    const good = (await send(Buffer.from('%PDF-1.4\nclean\n%%EOF'), 'good.pdf')).json().document.id;
    await waitFor('clamd verdicts', async () => (await documentStatus(t.database.db, bad)) === 'rejected' && (await documentStatus(t.database.db, good)) === 'available');
    const dl = (id: number) => t.request({ method: 'GET', url: `/api/v4/documents/${id}/download`, token: reseller });
    assert.equal((await dl(bad)).statusCode, 410);
    assert.equal((await dl(good)).statusCode, 200);
    const note = await t.database.db.execute<{ note: string }>(sql`select note from documents where id = ${bad}`);
    assert.match(note.rows[0]!.note, /\(clamd\)$/);
  });
});
