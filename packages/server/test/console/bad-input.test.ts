// Bad input on the console: guessed passwords (throttled, no enumeration), missing and stale CSRF
// tokens, a box-office user calling manager and admin actions directly, another museum's or an
// unknown order, HTML in every field, a double-clicked sale. Each: a clear page, nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { anonymousBrowser, csrfOf, PASSWORD, signIn } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());
const count = async (q: string) => (await fx.t.database.db.execute<{ n: number }>(sql.raw(`select count(*)::int n from ${q}`))).rows[0]!.n;

async function attempt(email: string, password: string, ip = '127.0.0.1') {
  const b = anonymousBrowser(fx.t);
  const page = await b.get('/console/login');
  const res = await fx.t.app.inject({
    method: 'POST', url: '/console/login', remoteAddress: ip, cookies: b.cookies,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(page.body), email, password }).toString(),
  });
  return res;
}
const strip = (html: string) => html.replace(/name="(_csrf|back)" value="[^"]+"/g, '').replace(/value="[^"]*@[^"]*"/g, '');

describe('sign-in', () => {
  test('an unknown email and a wrong password get the same answer', async () => {
    const unknown = await attempt('nobody@example.org', 'whatever-password', '10.0.0.1');
    const wrong = await attempt(fx.staff.viewer, 'wrong-password!', '10.0.0.2');
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.statusCode, 401);
    assert.equal(strip(unknown.body), strip(wrong.body));
    assert.match(wrong.body, /Email or password is wrong|E-Mail oder Passwort ist falsch/);
    assert.equal(unknown.cookies.find((c) => c.name === 'atrium_console'), undefined);
  });

  test('five failures lock the account for 15 minutes, even with the right password, then it works again', async () => {
    const email = fx.staff.manager;
    for (let i = 0; i < 5; i++) assert.equal((await attempt(email, `wrong-${i}-password`, `10.1.0.${i}`)).statusCode, 401);
    const locked = await attempt(email, PASSWORD, '10.1.1.1');
    assert.equal(locked.statusCode, 429);
    assert.match(locked.body, /Too many failed attempts|Zu viele Fehlversuche/);
    assert.equal(locked.cookies.find((c) => c.name === 'atrium_console'), undefined, 'no session');
    // Control: another account from the same addresses is not affected.
    assert.equal((await attempt(fx.staff.viewer, PASSWORD, '10.1.0.1')).statusCode, 303);
    fx.t.clock.advance(15 * 60_000 + 1000);
    assert.equal((await attempt(email, PASSWORD, '10.1.1.1')).statusCode, 303);
  });

  test('twenty failures from one address lock that address for every account, unknown emails too', async () => {
    for (let i = 0; i < 20; i++) await attempt(`guess${i}@example.org`, 'nope-nope-nope', '10.2.0.9');
    assert.equal((await attempt(fx.staff.box_office, PASSWORD, '10.2.0.9')).statusCode, 429);
    assert.equal((await attempt(fx.staff.box_office, PASSWORD, '10.2.0.10')).statusCode, 303, 'control: another address');
  });

  test('a sign-in without the form token is refused', async () => {
    const res = await fx.t.app.inject({ method: 'POST', url: '/console/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${encodeURIComponent(fx.staff.admin)}&password=${encodeURIComponent(PASSWORD)}` });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /The form has expired or is incomplete|Das Formular ist abgelaufen oder unvollständig/);
  });
});

describe('CSRF', () => {
  test('a missing or stale token changes nothing; the right one works', async () => {
    const o = await fx.order(fx.A, { items: 2 });
    const b = await signIn(fx.t, fx.staff.box_office);
    const stale = b.csrf;
    const other = await signIn(fx.t, fx.staff.box_office);
    const audits = await count('audit_log');
    for (const csrf of [null, '', 'x'.repeat(43), other.csrf]) {
      const res = await b.post(`/console/orders/${o.id}/cancel`, { item: String(o.itemIds[0]), confirm: '1' }, { csrf });
      assert.equal(res.statusCode, 403, String(csrf));
      assert.match(res.body, /The form has expired or is incomplete\. Please reload the page and try again\. Nothing was changed\./);
    }
    assert.equal(await count(`order_items where order_id = ${o.id} and status = 'cancelled'`), 0);
    assert.equal(await count('audit_log'), audits);
    // After sign-out and in again, the old page's token is stale.
    await b.post('/console/logout', {});
    const again = await signIn(fx.t, fx.staff.box_office);
    const res = await again.post(`/console/orders/${o.id}/cancel`, { item: String(o.itemIds[0]), confirm: '1' }, { csrf: stale });
    assert.equal(res.statusCode, 403);
    const ok = await again.post(`/console/orders/${o.id}/cancel`, { item: String(o.itemIds[0]), confirm: '1' });
    assert.equal(ok.statusCode, 303);
    assert.equal(await count(`order_items where order_id = ${o.id} and status = 'cancelled'`), 1);
  });

  test('htmx requests send the token as a header', async () => {
    const o = await fx.order(fx.A);
    const b = await signIn(fx.t, fx.staff.box_office);
    const res = await fx.t.app.inject({ method: 'POST', url: `/console/orders/${o.id}/resend`, cookies: b.cookies, headers: { 'x-csrf-token': b.csrf, 'hx-request': 'true' } });
    assert.equal(res.statusCode, 303);
  });
});

describe('roles and scope, called directly', () => {
  test('box office may not accept or decline requests', async () => {
    const id = await fx.request(fx.A);
    const b = await signIn(fx.t, fx.staff.box_office);
    for (const path of ['accept', 'decline']) {
      const res = await b.post(`/console/requests/${id}/${path}`, { reason: 'no' });
      assert.equal(res.statusCode, 403);
    }
    assert.equal(await count(`requests where id = ${id} and status = 'pending'`), 1);
  });

  test('accepting a request asks first: the first post books nothing, the confirmed one books', async () => {
    const id = await fx.request(fx.A);
    const m = await signIn(fx.t, fx.staff.manager);
    const orders = await count('orders');
    const ask = await m.post(`/console/requests/${id}/accept`, {});
    assert.equal(ask.statusCode, 200);
    assert.match(ask.body, new RegExp(`Accept request ${id}\\?|Anfrage ${id} annehmen\\?`));
    assert.match(ask.body, /10 (participants|Teilnehmende)/);
    assert.match(ask.body, /Group tour|Gruppenführung/);
    assert.match(ask.body, new RegExp(`action="/console/requests/${id}/accept"[\\s\\S]*name="confirm" value="1"`));
    assert.equal(await count(`requests where id = ${id} and status = 'pending'`), 1, 'nothing decided yet');
    assert.equal(await count('orders'), orders, 'nothing booked yet');
    assert.equal((await fx.t.database.db.execute(sql`select 1 from audit_log where action = 'request.accept' and entity_id = ${String(id)}`)).rows.length, 0);
    const done = await m.post(`/console/requests/${id}/accept`, { confirm: '1' });
    assert.equal(done.statusCode, 303);
    assert.equal(await count(`requests where id = ${id} and status = 'accepted' and order_id is not null`), 1);
    assert.equal(await count('orders'), orders + 1);
  });

  test("another museum's order, an unknown one and a malformed id are the same 404", async () => {
    const a = await fx.order(fx.A);
    const b = await signIn(fx.t, fx.staffB.manager);
    const pages = await Promise.all([`/console/orders/${a.id}`, '/console/orders/999999', '/console/orders/abc'].map((u) => b.get(u)));
    for (const p of pages) assert.equal(p.statusCode, 404);
    assert.equal(strip(pages[0]!.body), strip(pages[1]!.body));
    const search = await b.get(`/console/orders?q=${a.id}`);
    assert.doesNotMatch(search.body, new RegExp(`/console/orders/${a.id}"`));
  });
});

describe('escaping and headers', () => {
  const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
  test('HTML in customer, request and search fields is escaped everywhere', async () => {
    const o = await fx.order(fx.A, { name: evil, surname: `Evil${evil}`, email: 'evil@example.org' });
    await fx.request(fx.A, { notes: evil, surname: evil });
    const b = await signIn(fx.t, fx.staff.admin);
    const pages = [await b.get(`/console/orders/${o.id}`), await b.get(`/console/orders?q=${encodeURIComponent('Evil<script>')}`), await b.get('/console/requests'), await b.get(`/console/orders?q=${encodeURIComponent(evil)}`)];
    for (const p of pages) {
      assert.equal(p.statusCode, 200);
      assert.ok(!p.body.includes('<script>alert'), 'no raw script');
      assert.ok(!p.body.includes('<img src=x'), 'no raw tag');
      assert.ok(p.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'shown escaped');
      const csp = String(p.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(p.headers['x-frame-options'], 'DENY');
    }
    assert.doesNotMatch(pages.map((p) => p.body).join(''), /<[^>]+\sstyle=|<script>(?!<\/script>)[^<]/, 'no inline style or script');
  });

  test('cookies: HttpOnly and SameSite; Secure with the __Host- prefix behind TLS', async () => {
    const plain = await attempt(fx.staff.viewer, PASSWORD, '10.3.0.1');
    const c = plain.cookies.find((x) => x.name === 'atrium_console')!;
    assert.equal(c.httpOnly, true);
    assert.equal(c.sameSite, 'Lax');
    assert.notEqual(c.secure, true);
    const tls = await consoleFixture({ env: { ATRIUM_TRUST_PROXY: 'true' } });
    try {
      const login = await tls.t.app.inject({ method: 'GET', url: '/console/login', headers: { 'x-forwarded-proto': 'https' } });
      const pre = login.cookies.find((x) => x.name === '__Host-atrium_console_pre')!;
      assert.ok(pre && pre.secure && pre.httpOnly && pre.path === '/');
      const res = await tls.t.app.inject({
        method: 'POST', url: '/console/login', headers: { 'x-forwarded-proto': 'https', 'content-type': 'application/x-www-form-urlencoded' }, cookies: { '__Host-atrium_console_pre': pre.value },
        payload: new URLSearchParams({ _csrf: csrfOf(login.body), email: tls.staff.viewer, password: PASSWORD }).toString(),
      });
      assert.equal(res.statusCode, 303);
      const s = res.cookies.find((x) => x.name === '__Host-atrium_console')!;
      assert.ok(s.secure && s.httpOnly && s.path === '/' && s.sameSite === 'Lax');
    } finally {
      await tls.t.close();
    }
  });
});

describe('box-office sale', () => {
  test('a double-clicked sale (same form twice, and at once) makes one order; two forms make two', async () => {
    const b = await signIn(fx.t, fx.staff.box_office);
    const form = await b.get(`/console/sale?date=${fx.day}`);
    const key = /name="key" value="([^"]+)"/.exec(form.body)![1]!;
    const body = { key, date: fx.day, line: `T:${fx.A.ticketId}:${fx.at(720)}:2`, op: 'sell', payment: 'card', delivery: 'print', name: 'Doris', surname: 'Doppelklick', email: 'dk@example.org' };
    const before = await count('orders');
    const [r1, r2] = await Promise.all([b.post('/console/sale', body), b.post('/console/sale', body)]);
    const r3 = await b.post('/console/sale', body);
    for (const r of [r1, r2, r3]) assert.equal(r.statusCode, 303, r.body.slice(r.body.indexOf('<main'), r.body.indexOf('<main') + 600));
    assert.equal(new Set([r1, r2, r3].map((r) => r.headers.location)).size, 1);
    assert.equal(await count('orders'), before + 1);
    assert.equal(await count(`audit_log where action = 'order.sell'`), 1);
    assert.equal(await count(`payments where provider = 'desk'`), 1, 'the payment is recorded once');
    const id = Number(/done=(\d+)/.exec(String(r1.headers.location))![1]);
    const [row] = (await fx.t.database.db.execute<{ payment_method: string; staff_user_id: number; status: string }>(sql`select payment_method, staff_user_id, status from orders where id = ${id}`)).rows;
    assert.equal(row!.payment_method, 'card');
    assert.equal(row!.status, 'finalized');
    assert.ok(row!.staff_user_id > 0);
    // Control: a second form (new key) is a second sale.
    const form2 = await b.get(`/console/sale?date=${fx.day}`);
    const key2 = /name="key" value="([^"]+)"/.exec(form2.body)![1]!;
    assert.equal((await b.post('/console/sale', { ...body, key: key2 })).statusCode, 303);
    assert.equal(await count('orders'), before + 2);
  });

  test('bad sale input: a clear message on the form, no order', async () => {
    const b = await signIn(fx.t, fx.staff.box_office);
    const before = await count('orders');
    const res = await b.post('/console/sale', { key: crypto.randomUUID(), date: fx.day, time: fx.at(720), [`q-T-${fx.A.ticketId}`]: 'zwei', op: 'sell', payment: 'cash', given: 'viel', delivery: 'mail' });
    assert.equal(res.statusCode, 422);
    for (const m of ['The quantity must be a whole number from 1 to 100.', 'Type an amount such as 20 or 20.50.']) assert.ok(res.body.includes(m), m);
    assert.match(res.body, new RegExp(`id="q-T-${fx.A.ticketId}"[^>]*value="zwei"`));
    const empty = await b.post('/console/sale', { key: crypto.randomUUID(), date: fx.day, op: 'sell', payment: 'cash', delivery: 'mail' });
    assert.equal(empty.statusCode, 422);
    for (const m of ['The basket is empty.', 'An email address is needed to mail the tickets.']) assert.ok(empty.body.includes(m), m);
    assert.equal(await count('orders'), before);
  });
});

test('the audit log is append-only', async () => {
  const db = fx.t.database.db;
  for (const stmt of ['update audit_log set actor = \'x\'', 'delete from audit_log', 'truncate audit_log']) {
    await assert.rejects(db.execute(sql.raw(stmt)), (e: Error & { cause?: Error }) => /append-only/.test(String(e.cause?.message ?? e.message)));
  }
});
