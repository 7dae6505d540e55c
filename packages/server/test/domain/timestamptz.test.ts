// The timestamptz parser of raw pool queries (src/db/timestamptz.ts) gives the instant PostgreSQL
// means, as node-postgres's default parser did: compared with that parser over generated texts of
// every shape, and with PostgreSQL's own epoch under session time zones whose offsets have hours
// only, minutes, or seconds (historical local mean time).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { defaultTimestamptz as defaultParse, parseTimestamptz } from '../../src/db/timestamptz.ts';
import { freshDatabase } from '../helpers/db.ts';

const same = (a: Date | number, b: Date | number) => (a instanceof Date ? a.getTime() : a) === (b instanceof Date ? b.getTime() : b);

test('the usual shapes give the default parser\'s instant', () => {
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  const pad = (v: number, w = 2) => String(v).padStart(w, '0');
  for (let i = 0; i < 20_000; i++) {
    const year = [1 + rnd(99), 100 + rnd(1900), 1970 + rnd(100), 2026, 9999][rnd(5)]!;
    const fraction = rnd(3) === 0 ? '' : `.${String(rnd(1_000_000)).padStart(6, '0').slice(0, 1 + rnd(6))}`;
    const sign = rnd(2) ? '+' : '-';
    const offset = rnd(2) ? pad(rnd(15)) : `${pad(rnd(15))}:${pad([0, 15, 30, 45][rnd(4)]!)}`;
    const text = `${pad(year, 4)}-${pad(1 + rnd(12))}-${pad(1 + rnd(28))} ${pad(rnd(24))}:${pad(rnd(60))}:${pad(rnd(60))}${fraction}${sign}${offset}`;
    assert.ok(same(parseTimestamptz(text), defaultParse(text)), text);
  }
});

test('other texts PostgreSQL prints go to the default parser', () => {
  for (const text of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '10000-01-01 00:00:00+00', '1850-06-01 00:00:00+00:53:28', '2026-11-24 21:43:12.262+00:00:00']) {
    assert.ok(same(parseTimestamptz(text), defaultParse(text)), text);
  }
});

const database = await freshDatabase({ max: 1 });
after(() => database.drop());

test('values read under several session time zones are PostgreSQL\'s instants', async () => {
  const client = await database.pool.connect();
  try {
    for (const zone of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham']) {
      await client.query(`set time zone '${zone}'`);
      const { rows } = await client.query<{ at: Date; text: string; ms: string }>(
        `select v as at, v::text as text, (extract(epoch from v) * 1000)::bigint::text as ms
           from unnest(array['2026-11-24 21:43:12.262123+00', '2026-03-29 01:30:00+00', '1850-06-01 00:00:00+00', '0099-12-31 23:59:59.999+00']::timestamptz[]) v`,
      );
      for (const r of rows) {
        assert.ok(r.at instanceof Date, `${zone} ${r.text}`);
        // extract(epoch) rounds microseconds; Dates keep milliseconds, truncated as before.
        assert.ok(Math.abs(r.at.getTime() - Number(r.ms)) <= 1, `${zone}: ${r.text} read as ${r.at.toISOString()}`);
        assert.ok(same(r.at, defaultParse(r.text)), `${zone}: ${r.text}`);
      }
    }
  } finally {
    client.release();
  }
});

test('the pool the app uses reads timestamptz with this parser', () => {
  assert.equal(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text'), parseTimestamptz);
});
