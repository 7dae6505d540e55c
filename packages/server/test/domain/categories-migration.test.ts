// Migration 0024 turns the free-text `category` of events and tours into category records
// without losing any: every distinct text becomes a category of its kind (event and tour
// categories apart, as go~mus lists them), each record points at its own, and none without a
// category gains one. Runs the migrations before 0024 on an empty database, writes the old
// shape, then applies 0024 alone.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { migrationsFolder } from '../../src/db/migrate.ts';
import { adminUrl, urlFor } from '../helpers/db.ts';

const name = `atrium_t_${(process.env.ATRIUM_TEST_TEMPLATE ?? '').split('_')[2]}_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl() });
await admin.connect();
await admin.query(`create database "${name}"`);
const db = new pg.Client({ connectionString: urlFor(name) });
await db.connect();
after(async () => {
  await db.end();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
const sqlOf = (tag: string) => fs.readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8');

test('0024 backfills free-text categories into records, per kind', async () => {
  for (const e of journal.entries.filter((x) => x.idx < 24).sort((a, b) => a.idx - b.idx)) await db.query(sqlOf(e.tag));
  await db.query(`insert into museums (title, time_zone, opening_hours) values ('{"en":"M"}', 'Europe/Berlin', '[]')`);
  const m = (await db.query<{ id: number }>('select id from museums')).rows[0]!.id;
  await db.query(
    `insert into events (museum_id, title, category) values ($1, '{"en":"a"}', 'Führung'), ($1, '{"en":"b"}', 'Führung'), ($1, '{"en":"c"}', 'Talk'), ($1, '{"en":"d"}', null), ($1, '{"en":"e"}', '')`,
    [m],
  );
  await db.query(`insert into tours (museum_id, title, category, duration, max_persons, price_cents) values ($1, '{"en":"t"}', 'Führung', 60, 10, 100), ($1, '{"en":"u"}', null, 60, 10, 100)`, [m]);

  await db.query(sqlOf(journal.entries.find((x) => x.idx === 24)!.tag));

  const kinds = (await db.query<{ kind: string; name: string }>('select kind, name from categories order by kind, name')).rows.map((r) => `${r.kind}:${r.name}`);
  assert.deepEqual(kinds, ['event:', 'event:Führung', 'event:Talk', 'tour:Führung']);
  const of = async (table: string) =>
    (await db.query<{ title: { en: string }; kind: string | null; name: string | null }>(`select t.title, c.kind, c.name from ${table} t left join categories c on c.id = t.category_id order by t.id`)).rows.map(
      (r) => [r.title.en, r.kind, r.name],
    );
  assert.deepEqual(await of('events'), [['a', 'event', 'Führung'], ['b', 'event', 'Führung'], ['c', 'event', 'Talk'], ['d', null, null], ['e', 'event', '']]);
  assert.deepEqual(await of('tours'), [['t', 'tour', 'Führung'], ['u', null, null]]);
  const gone = await db.query(`select 1 from information_schema.columns where table_name in ('events', 'tours') and column_name = 'category'`);
  assert.equal(gone.rowCount, 0, 'the free-text column is gone');
});
