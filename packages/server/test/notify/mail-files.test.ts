// The .eml store at rest: files 0600 in a 0700 directory (an older, open directory is tightened
// when the worker starts), and after a GDPR erasure over HTTP no .eml of that customer remains,
// while another customer's mail stays.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import { catalogue, testWorker, waitFor, type Catalogue } from '../jobs/support.ts';
import type { Worker } from '../../src/jobs/worker.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-emlfiles-'));
const mailDir = path.join(dataDir, 'mail');
// What an older version left: an open directory with a world-readable message.
fs.mkdirSync(mailDir, { mode: 0o755 });
fs.chmodSync(mailDir, 0o755);
fs.writeFileSync(path.join(mailDir, '999-old.eml'), 'To: old@example.org\n\nold', { mode: 0o644 });
fs.chmodSync(path.join(mailDir, '999-old.eml'), 0o644);

const t = await testApp({ env: { ATRIUM_DATA_DIR: dataDir } });
let worker: Worker | undefined;
after(async () => {
  await worker?.stop();
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const db = t.database.db;
let c: Catalogue, staff: string;
const mode = (p: string) => fs.statSync(p).mode & 0o777;
const files = () => fs.readdirSync(mailDir).filter((f) => f.endsWith('.eml'));

before(async () => {
  c = await catalogue(db);
  staff = await t.token({ class: 'user' });
  worker = await testWorker(t, { dispatchIntervalMs: 50, mailFilesIntervalMs: 100 });
});

async function request(email: string): Promise<number> {
  const res = await t.request({
    method: 'POST',
    url: '/api/v4/requests',
    token: staff,
    payload: { date: c.at(660).slice(0, 10), participants: 12, items: [{ tour_id: c.tourId, start_time: c.at(660), language_id: c.langId }], customer: { name: 'Eva', surname: 'Ek', email, locale: 'de' } },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().request.id as number;
}

/** The .eml files whose message is addressed to `email`. */
const filesTo = (email: string) => files().filter((f) => fs.readFileSync(path.join(mailDir, f), 'utf8').includes(email));

test('mail files are 0600 in a 0700 directory; an open directory from before is tightened', async () => {
  assert.equal(mode(mailDir), 0o700);
  assert.equal(mode(path.join(mailDir, '999-old.eml')), 0o600);
  await request('mode@example.org');
  const [f] = await waitFor('the .eml', async () => (filesTo('mode@example.org').length ? filesTo('mode@example.org') : null));
  assert.equal(mode(path.join(mailDir, f!)), 0o600);
});

test('after a GDPR erasure over HTTP no .eml of that customer remains', async () => {
  await request('erase-me@example.org');
  await request('erase-me@example.org');
  await request('keep-me@example.org');
  await waitFor('three .eml files', async () => filesTo('erase-me@example.org').length === 2 && filesTo('keep-me@example.org').length === 1);
  const r = await db.execute<{ id: number }>(sql`select id from customers where email = 'erase-me@example.org'`);
  assert.ok(r.rows.length >= 1);
  for (const { id } of r.rows) {
    const res = await t.request({ method: 'POST', url: `/api/v4/customers/${id}/erase`, token: staff });
    assert.equal(res.statusCode, 200, res.body);
  }
  await waitFor('the erased customer\'s files gone', async () => filesTo('erase-me@example.org').length === 0, 10_000);
  assert.equal(filesTo('keep-me@example.org').length, 1, 'another customer\'s mail stays');
});
