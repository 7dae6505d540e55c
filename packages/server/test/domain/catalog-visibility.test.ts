// db/repositories/catalog/visibility.ts must say exactly what visibility.ts says: lists filter in SQL, single records
// in JS, and a disagreement would show a record in a list that then answers 404 (or hide one).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { asc } from 'drizzle-orm';
import { tickets } from '../../src/db/schema/index.ts';
import { isVisibleTo } from '../../src/domain/catalog/visibility.ts';
import { visibleSql } from '../../src/db/repositories/catalog/visibility.ts';
import { anonymous, type Principal } from '../../src/domain/principal.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
after(() => database.drop());

const account = (access: 'public' | 'user' | 'reseller', accountId: number, museumIds: number[]): Principal => ({
  kind: 'account', accountId, accountName: 'x', access, museumIds, rights: new Set(['*']), tokenId: 1, tokenLast4: 'abcd', rateLimitPerMinute: null,
});

test('SQL and JS visibility agree for every caller and product combination', async () => {
  const db = database.db;
  const m1 = await f.museum(db);
  const m2 = await f.museum(db);
  for (const museumId of [m1.id, m2.id])
    for (const salesChannels of [[], ['shop'], ['reseller'], ['shop', 'reseller']])
      for (const resellerAccountIds of [[], [7], [8, 9]])
        for (const active of [true, false]) await f.ticket(db, { museumId, salesChannels, resellerAccountIds, active });
  const all = await db.select().from(tickets).orderBy(asc(tickets.id));
  const callers: Principal[] = [
    anonymous,
    account('public', 1, []),
    account('public', 1, [m2.id]),
    account('user', 2, []),
    account('user', 2, [m1.id]),
    account('reseller', 7, []),
    account('reseller', 8, [m2.id]),
    account('reseller', 5, []),
  ];
  for (const p of callers) {
    const viaSql = (await db.select({ id: tickets.id }).from(tickets).where(visibleSql(p, tickets)).orderBy(asc(tickets.id))).map((r) => r.id);
    const viaJs = all.filter((t) => isVisibleTo(p, t)).map((t) => t.id);
    assert.deepEqual(viaSql, viaJs, JSON.stringify({ ...p, rights: undefined }));
    assert.ok(p.kind === 'anonymous' || viaJs.length > 0 || p.access === 'public');
  }
});
