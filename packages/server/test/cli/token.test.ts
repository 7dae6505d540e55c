import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { apiTokens } from '../../src/db/schema/index.ts';
import { freshDatabase } from '../helpers/db.ts';
import { lastLine, runCli } from './cli.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const database = await freshDatabase();
const app = await buildApp({ database, config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }), logger: false, ...TEST_SCHEMAS });
after(async () => {
  await app.close();
  await database.drop();
});
const env = { DATABASE_URL: database.url };
const whoami = (token: string) => app.inject({ method: 'GET', url: '/api/v4/whoami', headers: { authorization: `Bearer ${token}` } });

describe('atrium token', () => {
  let token = '';
  let tokenId = 0;

  test('create prints the token alone on the last line, and it works', async () => {
    const r = await runCli(['token', 'create', '--class', 'reseller', '--name', 'Travel Agency Ltd', '--museums', '1,2', '--expires-in', '90d'], env);
    assert.equal(r.code, 0, r.stderr);
    token = lastLine(r.stdout);
    assert.match(token, /^atr_[a-z0-9]+_\S+$/);
    tokenId = Number(/token #(\d+)/.exec(r.stdout)![1]);
    const res = await whoami(token);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { access: 'reseller', museums: [1, 2] });
  });

  test('list shows the last 4 characters and never the secret', async () => {
    const [r, json] = await Promise.all([runCli(['token', 'list'], env), runCli(['token', 'list', '--json'], env)]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`…${token.slice(-4)}`), r.stdout);
    assert.ok(r.stdout.includes('Travel Agency Ltd'));
    assert.ok(!r.stdout.includes(token.slice(-12)), 'no more than the last 4 characters of the secret');
    assert.ok(!json.stdout.includes(token.slice(-12)));
    assert.equal(JSON.parse(json.stdout)[0].last4, token.slice(-4));
  });

  test('rotate with --overlap keeps the old token until the overlap ends', async () => {
    const r = await runCli(['token', 'rotate', String(tokenId), '--overlap', '1h'], env);
    assert.equal(r.code, 0, r.stderr);
    const fresh = lastLine(r.stdout);
    assert.notEqual(fresh, token);
    assert.equal((await whoami(fresh)).statusCode, 200);
    assert.equal((await whoami(token)).statusCode, 200, 'the old token works during the overlap');
    const [old] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, tokenId));
    const ends = old!.revokedAt!.getTime() - Date.now();
    assert.ok(ends > 55 * 60_000 && ends <= 3600_000, `old token ends in about an hour (${ends} ms)`);
    // Once the overlap is over, the old token is refused.
    await database.db.update(apiTokens).set({ revokedAt: new Date(Date.now() - 1000) }).where(eq(apiTokens.id, tokenId));
    assert.equal((await whoami(token)).statusCode, 401);
    token = fresh;
    tokenId = Number(/new token #(\d+)/.exec(r.stdout)![1]);
  });

  test('revoke ends a token at once', async () => {
    const r = await runCli(['token', 'revoke', String(tokenId)], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await whoami(token)).statusCode, 401);
  });

  test('bad input exits 1 with one clear line and no stack trace', async () => {
    const cases = [
      [['token', 'create', '--class', 'emperor', '--name', 'X'], /class must be public, user, reseller or entry/],
      [['token', 'create', '--class', 'user', '--name', 'X', '--expires-in', 'soon'], /invalid duration "soon"/],
      [['token', 'create', '--class', 'user'], /required option '--name <name>' not specified/],
      [['token', 'revoke', 'abc'], /token id must be a positive integer/],
      [['token', 'revoke', '999999'], /token not found/],
      [['token', 'list', '--colour'], /unknown option '--colour'/],
    ] as const;
    const results = await Promise.all(cases.map(([args]) => runCli([...args], env)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i]!;
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });
});
