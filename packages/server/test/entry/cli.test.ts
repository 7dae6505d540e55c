// `atrium token create --class entry` as an operator types it: museum-scoped scanner tokens that
// `token list` shows with their class and museums, and whose whoami says `entry`.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { freshDatabase } from '../helpers/db.ts';
import { lastLine, runCli } from '../cli/cli.ts';
import { TEST_SCHEMAS } from '../helpers/app.ts';

const database = await freshDatabase();
const app = await buildApp({ database, config: loadConfig({ ATRIUM_DATA_DIR: '/nonexistent' }), logger: false, ...TEST_SCHEMAS });
after(async () => {
  await app.close();
  await database.drop();
});
const env = { DATABASE_URL: database.url };

test('an entry token is created for museums, listed, and answers whoami as entry', async () => {
  const r = await runCli(['token', 'create', '--class', 'entry', '--name', 'Gate 1', '--museums', '5'], env, 90_000);
  assert.equal(r.code, 0, r.stderr);
  const token = lastLine(r.stdout);
  const who = await app.inject({ method: 'GET', url: '/api/v4/whoami', headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(who.json(), { access: 'entry', museums: [5] });
  const list = await runCli(['token', 'list'], env, 90_000);
  assert.match(list.stdout, /\tentry\t…\S{4}\taccount #\d+ "Gate 1"\tmuseums 5/);
  assert.ok(!list.stdout.includes(token.slice(-12)));
  const unscoped = await runCli(['token', 'create', '--class', 'entry', '--name', 'Gate 2'], env, 90_000);
  assert.equal(unscoped.code, 1);
  assert.match(unscoped.stderr, /entry tokens need --museums/);
});
