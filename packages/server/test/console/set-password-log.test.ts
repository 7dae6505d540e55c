// The token of a set-password link never reaches a log line: not the request lines of its page
// (shown, refused, submitted), not the warning of a mail that could not be sent. A control shows
// the lines were written and name the page.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { freshDatabase } from '../helpers/db.ts';
import { logLines } from '../helpers/logLines.ts';
import type { TestApp } from '../helpers/app.ts';
import { linkOf, setPasswordThrough } from './passwordLinks.ts';
import { signIn, staffUser } from './support.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const { lines, stream } = logLines();
const database = await freshDatabase();
const clock = new ManualClock(new Date());
// An SMTP server nobody listens on: the mail fails at once and is logged as a warning.
const config = loadConfig({ ATRIUM_DATA_DIR: '/nonexistent', SMTP_URL: 'smtp://127.0.0.1:9', ATRIUM_PUBLIC_RATE_LIMIT: '0', ATRIUM_ANON_RATE_LIMIT: '0', ATRIUM_USER_RATE_LIMIT: '0' });
const app = await buildApp({ database, clock, config, logger: { level: 'info', stream }, ...TEST_SCHEMAS });
after(async () => {
  await app.close();
  await database.drop();
});
const t = { app, database, clock, config } as unknown as TestApp;

test('no log line holds the token of a set-password link', async () => {
  const admin = await signIn(t, (await staffUser(t, 'admin')).email);
  const user = await staffUser(t, 'viewer');
  const res = await admin.post(`/console/staff/${user.id}/password`, { confirm: '1' });
  assert.match(res.body, /could not be sent/);
  const link = linkOf(res.body)!;
  const token = link.split('/').pop()!;
  assert.equal((await app.inject({ method: 'GET', url: `/console/set-password/${token}?lang=de` })).statusCode, 200);
  assert.equal((await setPasswordThrough(t, link, 'short', 'short')).statusCode, 422);
  assert.equal((await setPasswordThrough(t, link, 'a new long password')).statusCode, 303);
  assert.equal((await app.inject({ method: 'GET', url: `/console/set-password/${token}` })).statusCode, 404);

  const warned = lines.filter((l) => l.includes('set-password mail not sent'));
  assert.equal(warned.length, 1, 'the failed mail was logged');
  const paths = lines.map((l) => JSON.parse(l) as { path?: string }).map((l) => l.path).filter((p) => p?.startsWith('/console/set-password'));
  assert.deepEqual(paths, ['/console/set-password/****?lang=de', '/console/set-password/****', '/console/set-password/****', '/console/set-password/****']);
  assert.deepEqual(lines.filter((l) => l.includes(token) || l.includes(token.slice(0, 20))), []);
});
