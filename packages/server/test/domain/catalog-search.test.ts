// titleMatches (db/repositories/catalog/filters.ts) searches `title_search`, the translations joined by
// U+001F (migration 0032), unless q has a control character, and then each translation. Neither
// may add or drop a match: this compares both with a plain JS definition of the rule on titles
// whose JSON text holds keys, quotes, backslashes, newlines, the separator itself and non-ASCII
// letters, and on queries that would match across two translations if joined text were enough.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { asc } from 'drizzle-orm';
import { tickets } from '../../src/db/schema/index.ts';
import { titleMatches } from '../../src/db/repositories/catalog/filters.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';

const database = await freshDatabase();
after(() => database.drop());

test('searching the joined translations changes no search answer', async () => {
  const db = database.db;
  const m = await f.museum(db);
  const titles: Array<Record<string, string>> = [
    { de: 'Karte 12', en: 'Ticket 12' },
    { de: 'Führung "Über Öl"', en: 'Tour "On oil"' },
    { de: 'a\\b', en: 'line\nbreak' },
    { de: 'ÄRGER', en: 'tab\there' },
    { en: 'de' },
    { de: '50% Rabatt_x' },
    { de: 'x\u001fy', en: 'zwei' },
  ];
  for (const title of titles) await f.ticket(db, { museumId: m.id, title });
  const all = await db.select({ id: tickets.id, title: tickets.title }).from(tickets).orderBy(asc(tickets.id));
  const queries = ['Ticket 12', 'ticket', 'de', '"de"', 'de":', '12", "en', '"Über', 'über öl', 'ärger', 'a\\b', '\\', 'line\nbreak',
    'k\nb', 'tab\th', '50%', '%', '_x', 'Karte 12 Ticket', 'e', 'xyz', '12Ticket', '12\u001fTicket', 'y', 'x\u001fy', 'yzwei', 'y\u001fzwei'];
  for (const q of queries) {
    const viaSql = (await db.select({ id: tickets.id }).from(tickets).where(titleMatches(tickets.title, q)).orderBy(asc(tickets.id))).map((r) => r.id);
    // The rule: some translation contains q, ignoring case.
    const viaJs = all.filter((t) => Object.values(t.title).some((v) => typeof v === 'string' && v.toLowerCase().includes(q.toLowerCase()))).map((t) => t.id);
    assert.deepEqual(viaSql, viaJs, JSON.stringify(q));
  }
});
