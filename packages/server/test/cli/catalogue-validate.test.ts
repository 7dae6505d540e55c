// The catalogue file checks, in process (fast): positions, every error at once, each rule.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { importCatalogue } from '../../src/domain/catalog-import/importCatalogue.ts';
import { readCatalogueSource } from '../../src/domain/catalog-import/source.ts';
import { validateCatalogue } from '../../src/domain/catalog-import/validate.ts';
import { demoCatalogue } from '../../src/domain/demo/demoCatalogue.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { serverRoot } from './cli.ts';

const BASE = `
languages:
  - { code: de, name: Deutsch }
museums:
  - key: m1
    title: { de: Museum }
    time_zone: Europe/Berlin
    opening_hours: { monday: "10:00-18:00" }
quotas:
  - { key: slots, museum: m1, kind: slot, capacity: 10 }
  - { key: days, museum: m1, kind: day, capacity: 100 }
tickets:
  - key: t1
    museum: m1
    quotas: [slots, days]
    title: { de: Zeitfenster }
    ticket_type: time_slot
    price_cents: 1000
    first_entry: "10:00"
    last_entry: "17:00"
    entry_duration: 30
`;

/** The positioned error lines for a file text ([] when valid). */
async function errorsOf(text: string, name = 'catalogue.yaml'): Promise<string[]> {
  const source = readCatalogueSource(text, name);
  // A validation failure throws before any database access, so no database is needed here.
  const ctx = { db: undefined as never, clock: { now: () => new Date() } };
  try {
    await importCatalogue(ctx, { source, dryRun: true });
    return [];
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    assert.equal(e.code, 'VALIDATION_FAILED');
    assert.match(e.message, /nothing was changed/);
    return e.errors ?? [];
  }
}

describe('catalogue file validation', () => {
  test('the examples and the demo catalogue are valid', () => {
    for (const file of ['catalogue.example.yaml', 'catalogue.example.json']) {
      const source = readCatalogueSource(fs.readFileSync(path.join(serverRoot, 'examples', file), 'utf8'), file);
      assert.deepEqual(source.syntaxErrors, []);
      assert.deepEqual(validateCatalogue(source.value).issues, [], file);
    }
    const demo = validateCatalogue(demoCatalogue('2026-03-28'));
    assert.deepEqual(demo.issues, []);
    assert.equal(demo.plan.museums.length, 2);
  });

  test('an unknown reference names file:line:column and the path', async () => {
    const text = BASE.replace('quotas: [slots, days]', 'quotas: [slots, main-slot]');
    assert.deepEqual(await errorsOf(text), ['catalogue.yaml:15:21: tickets[0].quotas[1]: unknown quota "main-slot"']);
  });

  test('every problem is reported at once, in file order', async () => {
    const text =
      BASE.replace('time_zone: Europe/Berlin', 'time_zone: Europe/Atlantis')
        .replace('last_entry: "17:00"', 'last_entry: "09:00"')
        .replace('capacity: 100 }', 'capacity: 100, capcity: 5 }') +
      `  - key: t2
    museum: m1
    quotas: [slots]
    title: { de: Tageskarte }
    ticket_type: normal
    price_cents: -5
    first_entry: "10:00"
    last_entry: "17:00"
  - key: t1
    museum: m1
    quotas: [slots]
    title: { de: Doppelt }
    ticket_type: normal
    price_cents: 5
    first_entry: "10:00"
    last_entry: "25:00"
`;
    const errors = await errorsOf(text);
    assert.deepEqual(errors, [
      'catalogue.yaml:7:16: museums[0].time_zone: unknown time zone "Europe/Atlantis": use an IANA zone such as Europe/Berlin',
      'catalogue.yaml:11:56: quotas[1].capcity: unknown field "capcity"',
      'catalogue.yaml:20:17: tickets[0].last_entry: last_entry must not be before first_entry',
      'catalogue.yaml:27:18: tickets[1].price_cents: must be >= 0',
      'catalogue.yaml:30:10: tickets[2].key: duplicate key "t1" in tickets',
      'catalogue.yaml:32:14: tickets[2].quotas[0]: quota "slots" counts per time slot, but a day ticket (ticket_type normal) has no slots: use a day quota',
      'catalogue.yaml:37:17: tickets[2].last_entry: "25:00" is not a time of day: use "HH:MM" or minutes',
    ]);
  });

  test('JSON files get positions too, and syntax errors are positioned', async () => {
    const doc = readCatalogueSource(BASE, 'x.yaml').value as { tickets: Array<Record<string, unknown>> };
    doc.tickets[0]!.ticket_type = 'season';
    const json = JSON.stringify(doc, null, 2);
    const line = json.split('\n').findIndex((l) => l.includes('"season"')) + 1;
    assert.deepEqual(await errorsOf(json, 'c.json'), [`c.json:${line}:22: tickets[0].ticket_type: must be one of time_slot, normal`]);
    const broken = await errorsOf('{"museums": [\n  {"key": "a",,}\n]}', 'b.json');
    assert.equal(broken.length > 0, true);
    assert.match(broken[0]!, /^b\.json:2:\d+: /);
  });

  test('rules: slots, channels, dates, events and tours', async () => {
    const text =
      BASE.replace('    entry_duration: 30\n', '') +
      `    sales_channels: [shop]
    resellers: [7]
    valid_from: "2026-05-01"
    valid_until: "2026-04-01"
events:
  - key: e1
    museum: m1
    title: { de: Führung }
    dates:
      - { start_at: "2026-05-01T14:00", seats_max: 10, language: fr }
      - { start_at: "2026-05-01T14:00", seats_max: 10 }
tours:
  - { key: tour, museum: m2, title: { de: T }, duration: 60, max_persons: 5, price_cents: 0, window_start: "16:00", window_end: "10:00", languages: [de] }
`;
    const errors = (await errorsOf(text)).map((e) => e.replace(/^catalogue\.yaml:\d+:\d+: /, ''));
    assert.deepEqual(errors, [
      'tickets[0]: a time-slot ticket needs entry_duration (the slot length)',
      'tickets[0].resellers: resellers are named but the "reseller" sales channel is not enabled',
      'tickets[0].valid_until: valid_until must not be before valid_from',
      'events[0].dates[0].language: unknown language "fr"',
      'events[0].dates[1].start_at: duplicate date "2026-05-01T14:00:00+02:00" in this event',
      'tours[0].museum: unknown museum "m2"',
      'tours[0].window_end: window_end must be after window_start',
    ]);
  });

  test('an empty file and a non-mapping are refused', async () => {
    assert.deepEqual(await errorsOf(''), ['catalogue.yaml:1:1: (document): the file is empty']);
    assert.deepEqual(await errorsOf('- a\n- b\n'), ['catalogue.yaml:1:1: (document): must be a mapping']);
  });
});
