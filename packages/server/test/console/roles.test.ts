// Every console route (roles.table.ts) × every role scoped to museum A, anonymous, and a user
// scoped to museum B: each role can do exactly its actions. Allowed: 200 or a 303 that is not
// the sign-in page (a domain refusal such as a wrong current password is a 422 page, still
// "allowed"); not allowed: 403 with the role message, nothing changed; anonymous: to sign-in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { registeredConsoleRoutes } from '../../src/http/console/routes/kit.ts';
import { consoleFixture, type ConsoleFixture } from './fixture.ts';
import { ALL, PUBLIC_ROUTES, ROUTES, SIGN_OUT, type RouteCase } from './roles.table.ts';
import { anonymousBrowser, signIn, type Browser } from './support.ts';

let fx: ConsoleFixture;
before(async () => (fx = await consoleFixture()));
after(() => fx.t.close());

const auditCount = async () => (await fx.t.database.db.execute<{ n: number }>(sql`select count(*)::int n from audit_log`)).rows[0]!.n;

async function send(b: Browser, c: RouteCase) {
  const { url, form, file } = await c.make(fx);
  return c.method === 'GET' ? b.get(url) : b.post(url, form ?? {}, file ? { file } : {});
}

/** Allowed: the action ran (200, or 303 elsewhere than sign-in), or a domain refusal page (422). */
function assertAllowed(c: RouteCase, role: string, res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const where = `${c.method} ${c.route} as ${role}`;
  assert.ok([200, 303, 422].includes(res.statusCode), `${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode === 303 && !c.route.startsWith('/console/logout')) assert.doesNotMatch(String(res.headers.location), /\/console\/login/, where);
  if (c.route === '/console/account/password') assert.equal(res.statusCode, 422, where);
  else assert.notEqual(res.statusCode, 422, `${where}: ${res.body.slice(0, 500)}`);
}

test('the table lists every console route', () => {
  const listed = new Set([...ROUTES, ...SIGN_OUT].map((c) => `${c.method} ${c.route}`));
  const missing = [...registeredConsoleRoutes].filter((r) => !listed.has(r) && !PUBLIC_ROUTES.includes(r));
  assert.deepEqual(missing, [], 'add these routes to test/console/roles.table.ts');
  const stale = [...listed].filter((r) => !registeredConsoleRoutes.has(r));
  assert.deepEqual(stale, [], 'these table rows name no registered route');
});

for (const role of ALL) {
  describe(`as ${role}`, () => {
    let b: Browser;
    before(async () => (b = await signIn(fx.t, fx.staff[role])));
    for (const c of [...ROUTES, ...SIGN_OUT]) {
      test(`${c.method} ${c.route}: ${c.allowed.includes(role) ? 'allowed' : 'refused'}`, async () => {
        if (SIGN_OUT.includes(c)) b = await signIn(fx.t, fx.staff[role]);
        const audits = await auditCount();
        const res = await send(b, c);
        if (c.allowed.includes(role)) return assertAllowed(c, role, res);
        assert.equal(res.statusCode, 403, `${c.method} ${c.route} as ${role}: ${res.body.slice(0, 200)}`);
        assert.match(res.body, /Your role does not allow this action/);
        assert.equal(await auditCount(), audits, 'a refused action writes nothing');
      });
    }
  });
}

describe('anonymous', () => {
  for (const c of [...ROUTES, ...SIGN_OUT]) {
    test(`${c.method} ${c.route}: to sign-in, nothing changed`, async () => {
      const audits = await auditCount();
      const b = anonymousBrowser(fx.t);
      const res = await send(b, c);
      assert.equal(res.statusCode, 303);
      assert.match(String(res.headers.location), /^\/console\/login\?next=/);
      assert.equal(await auditCount(), audits);
    });
  }
});

describe('a user of another museum (scoped to B)', () => {
  for (const c of [...ROUTES, ...SIGN_OUT]) {
    // The most powerful role allowed the action, so only the museum scope stands in the way.
    const role = c.allowed.includes('admin') ? 'admin' : c.allowed[0]!;
    test(`${c.method} ${c.route} as ${role} of museum B: ${c.otherMuseum}`, async () => {
      const b = await signIn(fx.t, fx.staffB[role]);
      const audits = await auditCount();
      const res = await send(b, c);
      if (c.otherMuseum === 'refused') {
        assert.equal(res.statusCode, 422, `${c.method} ${c.route}: ${res.statusCode}`);
        assert.equal(await auditCount(), audits, 'nothing written');
        return;
      }
      if (c.otherMuseum === 'notfound') {
        assert.equal(res.statusCode, 404, `${c.method} ${c.route}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        assert.match(res.body, /does not exist, or it is outside your museums/);
        assert.equal(await auditCount(), audits, 'nothing written');
        return;
      }
      assertAllowed(c, `${role}@B`, res);
      if (c.leak) assert.ok(!res.body.includes(await c.leak(fx)), 'museum A data must not show');
    });
  }
});
