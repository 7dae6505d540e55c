// `atrium token create|rotate|revoke` are audited like the console's token changes: one entry per
// change, actor "cli" with the OS user who ran it, the token's last 4 characters and never the
// token; a refused command writes no entry.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { freshDatabase } from '../helpers/db.ts';
import { lastLine, runCli } from './cli.ts';

const database = await freshDatabase();
after(() => database.drop());
const env = { DATABASE_URL: database.url, SUDO_USER: 'erika' };

type Entry = { actor: string; action: string; entity_type: string; entity_id: string | null; staff_user_id: number | null; after: Record<string, unknown> | null };
const entries = async () =>
  (await database.db.execute<Entry>(sql`select actor, action, entity_type, entity_id, staff_user_id, after from audit_log order by id`)).rows;

test('create, rotate and revoke from the command line each leave an audit entry', async () => {
  const created = await runCli(['token', 'create', '--class', 'reseller', '--name', 'Travel Agency Ltd', '--museums', '1'], env);
  assert.equal(created.code, 0, created.stderr);
  const first = lastLine(created.stdout);
  const tokenId = Number(/token #(\d+)/.exec(created.stdout)![1]);
  const accountId = Number(/account #(\d+)/.exec(created.stdout)![1]);

  const rotated = await runCli(['token', 'rotate', String(tokenId), '--overlap', '1h'], env);
  assert.equal(rotated.code, 0, rotated.stderr);
  const second = lastLine(rotated.stdout);
  const newId = Number(/new token #(\d+)/.exec(rotated.stdout)![1]);

  const revoked = await runCli(['token', 'revoke', String(newId)], env);
  assert.equal(revoked.code, 0, revoked.stderr);

  const log = await entries();
  assert.deepEqual(log.map((e) => [e.actor, e.action, e.entity_type, e.entity_id, e.staff_user_id]), [
    ['cli', 'partner.create', 'account', String(accountId), null],
    ['cli', 'token.rotate', 'token', String(tokenId), null],
    ['cli', 'token.revoke', 'token', String(newId), null],
  ]);
  assert.ok(log.every((e) => e.after?.os_user === 'erika'), JSON.stringify(log));
  assert.equal(log[0]!.after!.token_last4, first.slice(-4));
  assert.equal(log[0]!.after!.name, 'Travel Agency Ltd');
  assert.equal(log[1]!.after!.new_token_last4, second.slice(-4));
  const text = JSON.stringify(log);
  for (const secret of [first, second]) assert.ok(!text.includes(secret.slice(-12)), 'never the token');
});

test('a refused command writes no entry', async () => {
  const before = (await entries()).length;
  const r = await runCli(['token', 'revoke', '999999'], env);
  assert.notEqual(r.code, 0);
  assert.equal((await entries()).length, before);
});
