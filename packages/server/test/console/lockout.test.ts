// The sign-in throttle never refuses the right password because of others' failures: a browser
// that signed in to the account before (device cookie) is exempt from the account lockout and the
// per-address limit, which still stop everyone else; a trusted browser has a lockout of its own.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testApp } from '../helpers/app.ts';
import { cookiesOf, csrfOf, PASSWORD, staffUser } from './support.ts';

const t = await testApp();
after(() => t.close());

/** One sign-in attempt from `ip` by a browser holding `jar` (updated with what it is sent). */
async function attempt(email: string, password: string, ip: string, jar: Record<string, string> = {}) {
  const page = await t.app.inject({ method: 'GET', url: '/console/login', remoteAddress: ip, cookies: jar });
  Object.assign(jar, cookiesOf(page));
  const res = await t.app.inject({
    method: 'POST', url: '/console/login', remoteAddress: ip, cookies: jar,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(page.body), email, password }).toString(),
  });
  Object.assign(jar, cookiesOf(res));
  delete jar.atrium_console; // each attempt as if signed out again
  return res.statusCode;
}
const wrong = (i: number) => `wrong-guess-${i}-password`;

describe('device cookie', () => {
  test('the right password after 5 wrong attempts by an attacker from another address works for a device that signed in before', async () => {
    const admin = await staffUser(t, 'admin');
    const desk: Record<string, string> = {};
    assert.equal(await attempt(admin.email, PASSWORD, '10.5.0.1', desk), 303);
    assert.match(desk.atrium_console_device ?? '', /^[A-Za-z0-9_-]{43}$/, 'a device cookie is set on success');
    for (let i = 0; i < 5; i++) assert.equal(await attempt(admin.email, wrong(i), '10.6.0.1'), 401);
    assert.equal(await attempt(admin.email, PASSWORD, '10.6.0.1'), 429, 'the attacker is locked out, right password or not');
    assert.equal(await attempt(admin.email, PASSWORD, '10.5.0.1'), 429, 'control: an unknown browser at the desk is locked out too');
    assert.equal(await attempt(admin.email, PASSWORD, '10.5.0.1', desk), 303, 'the desk that signed in before is not');
    assert.equal(await attempt(admin.email, PASSWORD, '10.5.0.2', { ...desk }), 303, 'from another address as well');
  });

  test('20 failures from one address do not stop another user\'s right password from a device cookie', async () => {
    const clerk = await staffUser(t, 'box_office');
    const own: Record<string, string> = {};
    assert.equal(await attempt(clerk.email, PASSWORD, '10.7.0.9', own), 303);
    for (let i = 0; i < 20; i++) assert.equal(await attempt(`guess${i}@example.org`, wrong(i), '10.7.0.9'), 401);
    assert.equal(await attempt(clerk.email, PASSWORD, '10.7.0.9'), 429, 'control: the address is limited for unknown browsers');
    assert.equal(await attempt(clerk.email, PASSWORD, '10.7.0.9', own), 303);
  });
});

describe('the throttle still holds', () => {
  test('an attacker from one address cannot try more than the limit, not with a made-up or another account\'s device cookie either', async () => {
    const victim = await staffUser(t, 'manager');
    const attacker = await staffUser(t, 'viewer');
    const jar: Record<string, string> = {};
    // The attacker's own account makes this browser trusted, for that account only.
    assert.equal(await attempt(attacker.email, PASSWORD, '10.8.0.1', jar), 303);
    const tries = [];
    for (let i = 0; i < 8; i++) tries.push(await attempt(victim.email, wrong(i), '10.8.0.1', jar));
    assert.deepEqual(tries, [401, 401, 401, 401, 401, 429, 429, 429]);
    assert.equal(await attempt(victim.email, PASSWORD, '10.8.0.1', jar), 429);
    assert.equal(await attempt(victim.email, PASSWORD, '10.8.0.1', { atrium_console_device: 'A'.repeat(43) }), 429, 'a made-up device cookie');
    // Per address: 20 failures over many accounts, then nothing more from there.
    const spray = [];
    for (let i = 0; i < 22; i++) spray.push(await attempt(`spray${i}@example.org`, wrong(i), '10.8.0.2'));
    assert.deepEqual(spray.slice(18), [401, 401, 429, 429]);
    // The window passes: the account opens again.
    t.clock.advance(15 * 60_000 + 1000);
    assert.equal(await attempt(victim.email, PASSWORD, '10.8.0.3'), 303);
  });

  test('a trusted browser is locked out after its own 5 failures (a stolen device cookie)', async () => {
    const u = await staffUser(t, 'admin');
    const stolen: Record<string, string> = {};
    assert.equal(await attempt(u.email, PASSWORD, '10.9.0.1', stolen), 303);
    const tries = [];
    for (let i = 0; i < 6; i++) tries.push(await attempt(u.email, wrong(i), '10.9.0.2', stolen));
    assert.deepEqual(tries, [401, 401, 401, 401, 401, 429]);
    assert.equal(await attempt(u.email, PASSWORD, '10.9.0.2', stolen), 429);
  });

  test('a browser trusted before keeps working while another trusted browser is locked out', async () => {
    const u = await staffUser(t, 'manager');
    const home: Record<string, string> = {};
    const office: Record<string, string> = {};
    assert.equal(await attempt(u.email, PASSWORD, '10.10.0.1', home), 303);
    assert.equal(await attempt(u.email, PASSWORD, '10.10.0.2', office), 303);
    for (let i = 0; i < 5; i++) assert.equal(await attempt(u.email, wrong(i), '10.10.0.3', home), 401);
    assert.equal(await attempt(u.email, PASSWORD, '10.10.0.3', home), 429);
    assert.equal(await attempt(u.email, PASSWORD, '10.10.0.2', office), 303);
  });
});
