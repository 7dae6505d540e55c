// Webhook signing secrets are sealed at rest by default: without ATRIUM_WEBHOOKS_SECRET_KEY a key
// is generated into the data directory (0600) and used; a secret stored in the clear by an older
// version still signs, and is sealed when the worker starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openSecret } from '../../src/domain/webhooks/secrets.ts';
import { KEY_FILE, webhookKey } from '../../src/notify/webhooks/key.ts';
import { testApp } from '../helpers/app.ts';
import { testWorker } from '../jobs/support.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-whkey-'));
const t = await testApp({ env: { ATRIUM_DATA_DIR: dataDir, ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1', ATRIUM_WEBHOOKS_SECRET_KEY: '' } });
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const db = t.database.db;

async function stored(id: number): Promise<string> {
  const r = await db.execute<{ secret_enc: string }>(sql`select secret_enc from webhook_endpoints where id = ${id}`);
  return r.rows[0]!.secret_enc;
}

test('a new secret is stored sealed with a key generated 0600 in the data directory', async () => {
  const reseller = await t.token({ class: 'reseller' });
  const res = await t.request({ method: 'POST', url: '/api/v4/webhooks', token: reseller, payload: { webhook: { url: 'http://127.0.0.1:9/hook', events: ['order.finalized'] } } });
  assert.equal(res.statusCode, 201, res.body);
  const { id, secret } = res.json().webhook as { id: number; secret: string };
  const enc = await stored(id);
  assert.match(enc, /^gcm:/);
  assert.ok(!enc.includes(secret.slice(6)), 'the clear secret is not in the database');
  const file = path.join(dataDir, KEY_FILE);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(openSecret(enc, webhookKey(t.config)), secret);
});

test('a secret stored in the clear is sealed when the worker starts', async () => {
  const reseller = await t.token({ class: 'reseller' });
  const res = await t.request({ method: 'POST', url: '/api/v4/webhooks', token: reseller, payload: { webhook: { url: 'http://127.0.0.1:9/old', events: ['order.finalized'] } } });
  const { id } = res.json().webhook as { id: number };
  await db.execute(sql`update webhook_endpoints set secret_enc = 'plain:whsec_older-clear-secret' where id = ${id}`);
  const w = await testWorker(t);
  await w.stop();
  const enc = await stored(id);
  assert.match(enc, /^gcm:/);
  assert.equal(openSecret(enc, webhookKey(t.config)), 'whsec_older-clear-secret');
});
