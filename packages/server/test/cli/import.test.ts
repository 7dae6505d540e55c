// `atrium import` and `--help` through the real command line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { freshDatabase } from '../helpers/db.ts';
import { runCli, serverRoot } from './cli.ts';

const database = await freshDatabase();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-import-'));
after(async () => {
  await database.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});
const env = { DATABASE_URL: database.url };
const example = (ext: string) => path.join(serverRoot, 'examples', `catalogue.example.${ext}`);

const TABLES = ['museums', 'exhibitions', 'quotas', 'quota_overrides', 'tickets', 'ticket_quotas', 'events', 'event_dates', 'tours', 'tour_languages', 'languages'];
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const r = await database.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${t}`));
    out[t] = r.rows[0]!.n;
  }
  return out;
}

describe('atrium import', () => {
  test('--help works for every command', async () => {
    const commands = [[], ['serve'], ['migrate'], ['seed'], ['import'], ['token'], ['token', 'create'], ['token', 'list'], ['token', 'revoke'], ['token', 'rotate']];
    const results = await Promise.all(commands.map((c) => runCli([...c, '--help'], env)));
    results.forEach((r, i) => {
      assert.equal(r.code, 0, `${commands[i]!.join(' ')} --help: ${r.stderr}`);
      assert.match(r.stdout, /^Usage: atrium/m);
    });
    assert.match(results[4]!.stdout, /--dry-run/);
  });

  test('a valid YAML file is imported; the same catalogue as JSON then updates it without duplicates', async () => {
    const first = await runCli(['import', example('yaml')], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /tickets\s+3 created, 0 updated/);
    const after1 = await counts();
    assert.deepEqual(
      { museums: after1.museums, tickets: after1.tickets, ticket_quotas: after1.ticket_quotas, event_dates: after1.event_dates, tour_languages: after1.tour_languages, quota_overrides: after1.quota_overrides },
      { museums: 1, tickets: 3, ticket_quotas: 5, event_dates: 2, tour_languages: 2, quota_overrides: 2 },
    );
    const [t] = (await database.db.execute(sql`select * from tickets order by id limit 1`)).rows as Array<Record<string, unknown>>;
    assert.equal(t!.first_entry, 600);
    assert.equal(t!.entry_duration, 30);
    assert.deepEqual(t!.sales_channels, ['shop', 'reseller']);

    // The JSON twin, with one price changed: records are matched by key; only the changed one is written.
    const doc = JSON.parse(fs.readFileSync(example('json'), 'utf8'));
    doc.tickets[0].price_cents = 1500;
    const file = path.join(tmp, 'catalogue.json');
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    const second = await runCli(['import', file], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /tickets\s+0 created, 1 updated, 2 unchanged/);
    assert.deepEqual(await counts(), after1);
    const price = await database.db.execute<{ price_cents: number }>(sql`select price_cents from tickets where id = ${t!.id}`);
    assert.equal(price.rows[0]!.price_cents, 1500);
  });

  test('an invalid file exits 1, lists every error with its line, and changes nothing', async () => {
    const before = await counts();
    const text = fs
      .readFileSync(example('yaml'), 'utf8')
      .replace('price_cents: 1400', 'price_cents: 1900') // a valid change that must not be applied
      .replace('quotas: [main-slot, main-day]     # keys', 'quotas: [main-slot, nope]     # keys')
      .replace('last_entry: "17:00"               # not before', 'last_entry: "09:00"               # not before');
    const file = path.join(tmp, 'catalogue.yaml');
    fs.writeFileSync(file, text);
    const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const r = await runCli(['import', file], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is invalid \(2 errors\); nothing was changed/);
    assert.ok(r.stderr.includes(`${file}:${lineOf('[main-slot, nope]')}:25: tickets[0].quotas[1]: unknown quota "nope"`), r.stderr);
    assert.ok(r.stderr.includes(`${file}:${lineOf('last_entry: "09:00"')}:17: tickets[0].last_entry: last_entry must not be before first_entry`), r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(await counts(), before);
    const prices = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from tickets where price_cents = 1900`);
    assert.equal(prices.rows[0]!.n, 0);
  });

  test('a missing file or a bad flag exits 1 with a clear message', async () => {
    const [missing, flag, none] = await Promise.all([
      runCli(['import', path.join(tmp, 'nope.yaml')], env),
      runCli(['import', example('yaml'), '--force'], env),
      runCli(['import'], env),
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nope\.yaml: no such file/);
    assert.equal(flag.code, 1);
    assert.match(flag.stderr, /unknown option '--force'/);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /missing required argument 'file'/);
    for (const r of [missing, flag, none]) assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
});
