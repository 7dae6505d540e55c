// The examples and the README snippet work against the real server: the examples' functions are
// called directly, and the README's "Using the client" code is extracted and run as pasted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { bookFirstFreeSlot, JsonFileStore, syncCatalogue } from '../examples/reseller.ts';
import { upsertCustomers } from '../examples/backoffice.ts';
import { clientEnv } from './helpers/env.ts';

const env = await clientEnv({ capacity: 50 });
after(() => env.close());
const here = path.dirname(fileURLToPath(import.meta.url));

describe('examples', () => {
  test('reseller: daily catalogue sync (file store, revalidated by ETag), then reservation and order', async () => {
    const file = path.join(here, `.cache-${process.pid}.tmp.json`);
    after(() => fs.rmSync(file, { force: true }));
    let now = Date.now();
    const make = () => env.client({ cache: { store: new JsonFileStore(file) }, now: () => now });
    const first = await syncCatalogue(make());
    assert.ok(first.tickets.some((t) => t.id === env.ticketId));
    env.proxy.reset();
    now += 25 * 3600_000; // the next day, a new process
    const second = await syncCatalogue(make());
    assert.deepEqual(second.tickets.map((t) => t.id), first.tickets.map((t) => t.id));
    assert.ok(env.proxy.seen.length > 0 && env.proxy.seen.every((s) => s.status === 304), 'an unchanged catalogue costs only 304s');

    const ticket = first.tickets.find((t) => t.id === env.ticketId)!;
    const order = await bookFirstFreeSlot(make(), ticket, env.day, 2);
    assert.equal(order.status, 'finalized');
    assert.equal(order.items[0]!.quantity, 2);
  });

  test('back office: create by foreign_id, run again unchanged, then with changes (PUT)', async () => {
    const c = env.client({ token: await env.t.token({ class: 'user', rights: ['customers:write', 'customers:read'] }) });
    const people = [
      { foreign_id: 'crm-1', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org' },
      { foreign_id: 'crm-2', name: 'Alan', surname: 'Turing', email: 'alan@example.org' },
    ];
    const made = await upsertCustomers(c, people, 2);
    const again = await upsertCustomers(c, people, 2);
    assert.deepEqual(again.map((x) => x.id), made.map((x) => x.id));
    const changed = await upsertCustomers(c, [{ ...people[0]!, email: 'ada@lovelace.example' }]);
    assert.equal(changed[0]!.id, made[0]!.id);
    assert.equal(changed[0]!.email, 'ada@lovelace.example');
    assert.equal((await c.customers.list()).meta.total_count, 2);
  });

  test('the README "Using the client" snippet runs as pasted', async () => {
    const readme = fs.readFileSync(path.resolve(here, '../../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Using the client'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(code && code.includes("from '@atrium/client'"));
    assert.ok(code.trim().split('\n').length <= 10, 'the example stays short');
    const file = path.join(here, `.readme-${process.pid}.tmp.ts`);
    fs.writeFileSync(file, code);
    after(() => fs.rmSync(file, { force: true }));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      env: { ...process.env, ATRIUM_URL: env.upstream, ATRIUM_TOKEN: env.reseller },
      timeout: 60_000,
    });
    assert.match(stdout, /access: 'reseller'/);
    assert.match(stdout, new RegExp(`^${env.ticketId} `, 'm'));
  });
});
