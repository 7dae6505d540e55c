// The partners pages over HTTP: tokens shown once (creation, rotation) and then only their last
// 4 characters, in pages and in the audit log; rotate and revoke take effect on the API; webhook
// endpoints with their secret shown once, test and retry deliveries; museum scope for scoped
// admins; managers refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { testApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { signIn, staffUser, type Browser } from './support.ts';

const t = await testApp();
after(() => t.close());
const db = t.database.db;
let museumA: number, museumB: number;
let admin: Browser, adminA: Browser, manager: Browser;
const secretOf = (html: string) => /id="secret" class="secret" readonly value="([^"]+)"/.exec(html)?.[1];
const whoami = async (token: string) => (await t.request({ method: 'GET', url: '/api/v4/whoami', token })).statusCode;
const auditText = async () => JSON.stringify((await db.execute(sql`select * from audit_log`)).rows);

before(async () => {
  museumA = (await f.museum(db)).id;
  museumB = (await f.museum(db)).id;
  admin = await signIn(t, (await staffUser(t, 'admin')).email);
  adminA = await signIn(t, (await staffUser(t, 'admin', [museumA])).email);
  manager = await signIn(t, (await staffUser(t, 'manager', [museumA])).email);
});

let accountId = 0, token = '';
test('creating a partner shows its token once; afterwards only the last 4 characters', async () => {
  const res = await admin.post('/console/partners', { name: 'Reisebüro <b>Nord</b>', class: 'reseller', museum_ids: String(museumA), rate_limit: '60' });
  assert.equal(res.statusCode, 200, res.body.slice(0, 600));
  assert.equal(res.headers['cache-control'], 'no-store');
  token = secretOf(res.body)!;
  assert.ok(token && token.length > 20, 'token on the page');
  assert.ok(!res.body.includes('<b>Nord</b>'), 'name escaped');
  assert.equal(await whoami(token), 200);
  accountId = Number(/href="\/console\/partners\/(\d+)"/.exec(res.body)![1]);
  const list = await admin.get('/console/partners');
  assert.ok(!list.body.includes(token), 'never again in full');
  assert.ok(list.body.includes(`…${token.slice(-4)}`));
  assert.ok(!(await auditText()).includes(token), 'the audit log holds the last 4 only');
  assert.match(await auditText(), /partner\.create/);
});

test('rotation shows the new token once and retires the old one; revocation is immediate', async () => {
  const detail = await admin.get(`/console/partners/${accountId}`);
  const tokenId = Number(/action="\/console\/tokens\/(\d+)\/rotate"/.exec(detail.body)![1]);
  const rotated = await admin.post(`/console/tokens/${tokenId}/rotate`, { overlap_minutes: '0' });
  assert.equal(rotated.statusCode, 200, rotated.body.slice(0, 400));
  const fresh = secretOf(rotated.body)!;
  assert.notEqual(fresh, token);
  assert.equal(await whoami(token), 401);
  assert.equal(await whoami(fresh), 200);
  assert.ok(!(await auditText()).includes(fresh));
  const again = await admin.get(`/console/partners/${accountId}`);
  const freshId = Number([...again.body.matchAll(/action="\/console\/tokens\/(\d+)\/revoke"/g)].at(-1)![1]);
  assert.equal((await manager.post(`/console/tokens/${freshId}/revoke`, {})).statusCode, 403);
  assert.equal(await whoami(fresh), 200, 'a refused revoke changed nothing');
  const ask = await admin.post(`/console/tokens/${freshId}/revoke`, {});
  assert.equal(ask.statusCode, 200, 'revoking asks first');
  assert.match(ask.body, /name="confirm" value="1"/);
  assert.equal(await whoami(fresh), 200, 'the confirmation page changed nothing');
  assert.equal((await admin.post(`/console/tokens/${freshId}/revoke`, { confirm: '1' })).statusCode, 303);
  assert.equal(await whoami(fresh), 401);
});

test('a scoped admin sees and creates only accounts of their museums', async () => {
  const wide = await admin.post('/console/partners', { name: 'Nur B', class: 'reseller', museum_ids: String(museumB) });
  const bId = Number(/href="\/console\/partners\/(\d+)"/.exec(wide.body)![1]);
  assert.equal((await adminA.get(`/console/partners/${bId}`)).statusCode, 404);
  assert.ok(!(await adminA.get('/console/partners')).body.includes('Nur B'));
  const refused = await adminA.post('/console/partners', { name: 'Sneaky', class: 'user', rights: 'orders:read' });
  assert.equal(refused.statusCode, 422, 'an all-museums account from a scoped admin');
  assert.match(refused.body, /museums must be within your own/);
  assert.equal((await adminA.post('/console/partners', { name: 'Sneaky', class: 'reseller', museum_ids: String(museumB) })).statusCode, 422);
  assert.equal((await db.execute(sql`select 1 from accounts where name = 'Sneaky'`)).rows.length, 0);
  assert.equal((await manager.get('/console/partners')).statusCode, 403);
  assert.equal((await manager.post('/console/partners', { name: 'M', class: 'reseller', museum_ids: String(museumA) })).statusCode, 403);
  const bad = await admin.post('/console/partners', { name: '', class: 'reseller' });
  assert.equal(bad.statusCode, 422);
  assert.match(bad.body, /name must not be blank/);
});

test('webhooks: secret shown once, test delivery listed, retried, deleted', async () => {
  const created = await admin.post(`/console/partners/${accountId}/webhooks`, { url: 'https://93.184.216.34/hook', events: ['order.created', 'order.cancelled'], description: '<i>x</i>' });
  assert.equal(created.statusCode, 200, created.body.slice(0, 600));
  const secret = secretOf(created.body)!;
  assert.match(secret, /^whsec_/);
  const detail = await admin.get(`/console/partners/${accountId}`);
  assert.ok(!detail.body.includes(secret));
  assert.ok(detail.body.includes(`…${secret.slice(-4)}`));
  assert.ok(!(await auditText()).includes(secret));
  const hookId = Number(new RegExp(`/console/partners/${accountId}/webhooks/(\\d+)"`).exec(detail.body)![1]);
  const bad = await admin.post(`/console/partners/${accountId}/webhooks`, { url: 'http://127.0.0.1/x', events: 'order.created' });
  assert.equal(bad.statusCode, 422);
  assert.equal((await admin.post(`/console/partners/${accountId}/webhooks/${hookId}/test`, {})).statusCode, 303);
  const deliveries = await admin.get(`/console/partners/${accountId}/webhooks/${hookId}`);
  assert.equal(deliveries.statusCode, 200);
  assert.match(deliveries.body, /webhook\.test/);
  const did = Number(/deliveries\/(\d+)\/retry/.exec(deliveries.body)![1]);
  assert.equal((await adminA.post(`/console/partners/${accountId}/webhooks/${hookId}/deliveries/${did}/retry`, {})).statusCode, 303, 'account of museum A: in scope');
  assert.equal((await manager.post(`/console/partners/${accountId}/webhooks/${hookId}/delete`, {})).statusCode, 403);
  assert.equal((await admin.post(`/console/partners/${accountId}/webhooks/${hookId}/delete`, {})).statusCode, 303);
  assert.equal((await admin.get(`/console/partners/${accountId}/webhooks/${hookId}`)).statusCode, 404);
});

test('rights are offered and shown in plain words; the stored value is the right name', async () => {
  const page = await admin.get('/console/partners');
  assert.match(page.body, /value="orders:read"> <label for="pr-orders-read">See orders and tickets<\/label>/);
  assert.match(page.body, /value="catalog:write"> <label for="pr-catalog-write">Change the offer, prices and opening hours/);
  assert.ok(!/<label[^>]*>orders:read<\/label>/.test(page.body), 'no raw right names as labels');
  const res = await admin.post('/console/partners', { name: 'Kasse Süd', class: 'user', rights: ['orders:read', 'documents:write'] });
  assert.equal(res.statusCode, 200, res.body.slice(0, 400));
  const id = Number(/href="\/console\/partners\/(\d+)"/.exec(res.body)![1]);
  const [row] = (await db.execute<{ rights: string[] }>(sql`select rights from accounts where id = ${id}`)).rows;
  assert.deepEqual([...row!.rights].sort(), ['documents:write', 'orders:read']);
  const detail = await admin.get(`/console/partners/${id}`);
  assert.match(detail.body, /<li>See orders and tickets<\/li>/);
  assert.match(detail.body, /<li>Make and send documents \(includes downloading them\)<\/li>/);
});
