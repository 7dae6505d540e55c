// `atrium import DIR`, `--dry-run` output and `atrium seed --remove-demo` through the real
// command line (the merge rules themselves: import-merge.test.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { seedDemo } from '../../src/domain/demo/seedDemo.ts';
import { addDays, localDateOf, weekdayIndex, zonedInstant } from '../../src/domain/time.ts';
import { testApp } from '../helpers/app.ts';
import { runCli } from './cli.ts';

const t = await testApp();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-import-cli-'));
after(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});
const env = { DATABASE_URL: t.database.url };
const rows = async <T>(q: ReturnType<typeof sql>) => (await t.database.db.execute(q)).rows as T[];
const count = async (table: string) => (await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

const places = `
museums:
  - key: dir-museum
    title: { en: Museum }
    time_zone: Europe/Berlin
    opening_hours: { tuesday: "10:00-18:00", saturday: "10:00-18:00" }
quotas:
  - { key: dir-slots, museum: dir-museum, kind: slot, capacity: 40 }
`;
const products = (quota: string, price = 1200) =>
  JSON.stringify({
    tickets: [{ key: 'dir-entry', museum: 'dir-museum', quotas: [quota], title: { en: 'Entry' }, ticket_type: 'time_slot', price_cents: price, first_entry: '10:00', last_entry: '17:00', entry_duration: 30 }],
  }, null, 2);

describe('atrium import (directory, dry run) and seed --remove-demo', () => {
  test('a directory is one catalogue: references across files, errors name the file', async () => {
    const dir = path.join(tmp, 'catalogue');
    fs.mkdirSync(path.join(dir, 'products'), { recursive: true });
    fs.writeFileSync(path.join(dir, '10-places.yaml'), places);
    fs.writeFileSync(path.join(dir, 'products', 'entry.json'), products('nope'));
    fs.writeFileSync(path.join(dir, 'README.txt'), 'not a catalogue file');
    const bad = await runCli(['import', dir], env, 90_000);
    assert.equal(bad.code, 1);
    const file = path.join(dir, 'products', 'entry.json');
    assert.match(bad.stderr, new RegExp(`${file.replace(/[/.]/g, '\\$&')}:\\d+:\\d+: tickets\\[0\\]\\.quotas\\[0\\]: unknown quota "nope"`), bad.stderr);
    assert.equal(await count('museums'), 0);

    fs.writeFileSync(file, products('dir-slots'));
    const good = await runCli(['import', dir], env, 90_000);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /museums\s+1 created/);
    assert.match(good.stdout, /tickets\s+1 created/);
  });

  test('--dry-run prints the plan with the changed fields and changes nothing', async () => {
    // A file is a whole catalogue (references resolve within it): the directory, one file changed.
    const dir = path.join(tmp, 'catalogue');
    const doc = JSON.parse(products('dir-slots', 1500));
    doc.tickets.push({ ...doc.tickets[0], key: 'dir-extra' });
    fs.writeFileSync(path.join(dir, 'products', 'entry.json'), JSON.stringify(doc));
    const before = await rows(sql`select id, price_cents, updated_at from tickets order by id`);
    const r = await runCli(['import', dir, '--dry-run'], env, 90_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /nothing was changed/);
    assert.match(r.stdout, /tickets\s+1 to create, 1 to update, 0 unchanged/);
    assert.match(r.stdout, /museums\s+0 to create, 0 to update, 1 unchanged/);
    assert.match(r.stdout, /\+ ticket dir-extra/);
    assert.match(r.stdout, /~ ticket dir-entry \(price_cents\)/);
    assert.deepEqual(await rows(sql`select id, price_cents, updated_at from tickets order by id`), before);
  });

  test('seed --remove-demo removes unbooked demo records and says what it kept and why', async () => {
    await seedDemo({ db: t.database.db, clock: t.clock });
    const ticket = (await rows<{ id: number }>(sql`select record_id as id from catalog_keys where kind = 'ticket' and key = 'demo-kh-regular'`))[0]!.id;
    const reseller = await t.token({ class: 'reseller' });
    // The first open day from the day after tomorrow (the Kunsthalle closes on Mondays).
    let ordered = false;
    for (let d = 2; d < 16 && !ordered; d++) {
      const date = addDays(localDateOf(new Date(), 'Europe/Berlin'), d);
      if (weekdayIndex(date) === 0) continue;
      const time = zonedInstant(date, 600, 'Europe/Berlin').toISOString();
      const res = await t.request({ method: 'POST', url: '/api/v4/orders', token: reseller, payload: { finalize: false, items: [{ type: 'Ticket', attributes: { id: ticket, quantity: 1, time } }], total: 1400 } });
      ordered = res.statusCode === 201;
    }
    assert.ok(ordered, 'an order for a demo ticket');
    const otherMuseum = await rows(sql`select 1 from museums where title->>'en' = 'Museum'`);

    const r = await runCli(['seed', '--remove-demo'], env, 90_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`ticket demo-kh-regular \\(#${ticket}\\): has 1 order`));
    assert.match(r.stdout, /museum demo-kunsthalle \(#\d+\): still used by/);
    assert.match(r.stdout, /- museum demo-stadtmuseum/);
    const left = await rows<{ key: string }>(sql`select key from catalog_keys where key like 'demo-%' and kind in ('ticket', 'event', 'tour', 'museum') order by key`);
    assert.deepEqual(left.map((k) => k.key), ['demo-kh-regular', 'demo-kunsthalle']);
    assert.equal((await rows(sql`select 1 from tickets where id = ${ticket}`)).length, 1);
    // What was not demo stays.
    assert.deepEqual(await rows(sql`select 1 from museums where title->>'en' = 'Museum'`), otherMuseum);
    assert.equal((await rows(sql`select 1 from tickets t join catalog_keys k on k.record_id = t.id and k.kind = 'ticket' where k.key = 'dir-entry'`)).length, 1);

    const again = await runCli(['seed', '--remove-demo'], env, 90_000);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /has 1 order/);
    assert.doesNotMatch(again.stdout, /^\s+- /m);
  });
});
