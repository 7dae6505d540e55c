// The locale helpers that documents, mails and pages share (src/i18n).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOCALES, formatDate, formatMoney, formatPct, formatSlot, formatTime, resolveLocale, t } from '../../src/i18n/index.ts';
import { de } from '../../src/i18n/messages/de.ts';
import { en } from '../../src/i18n/messages/en.ts';

const Z = 'Europe/Berlin';
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

test('slots read as people write them, in the museum zone', () => {
  const start = new Date('2026-12-12T09:30:00Z');
  const end = new Date('2026-12-12T10:00:00Z');
  assert.equal(formatSlot('de', start, end, Z), 'Sa., 12. Dez. 2026, 10:30–11:00');
  assert.equal(formatSlot('en', start, end, Z), 'Sat, 12 Dec 2026, 10:30–11:00');
  assert.equal(formatSlot('de', start, null, Z), 'Sa., 12. Dez. 2026, 10:30');
  // Across midnight the end repeats its date.
  assert.equal(formatSlot('en', start, new Date('2026-12-12T23:30:00Z'), Z), 'Sat, 12 Dec 2026, 10:30 – Sun, 13 Dec 2026, 00:30');
});

test('DST days: wall time in the zone, not UTC', () => {
  // 2026-03-29: Berlin moves from +01:00 to +02:00 at 02:00.
  assert.equal(formatTime('de', new Date('2026-03-29T00:30:00Z'), Z), '01:30');
  assert.equal(formatTime('de', new Date('2026-03-29T01:30:00Z'), Z), '03:30');
  assert.equal(formatDate('de', '2026-03-29', Z, 'long'), 'Sonntag, 29. März 2026');
});

test('money, percentages and numbers per locale', () => {
  assert.equal(nbsp(formatMoney('de', 123456, 'EUR')), '1.234,56 €');
  assert.equal(formatMoney('en', 123456, 'EUR'), '€1,234.56');
  assert.equal(nbsp(formatMoney('de', -5, 'EUR')), '-0,05 €');
  assert.equal(nbsp(formatPct('de', 5.5)), '5,5 %');
  assert.equal(formatPct('en', 19), '19%');
  assert.throws(() => formatMoney('de', 1.5, 'EUR'));
});

test('locale resolution and messages', () => {
  assert.deepEqual([...LOCALES].sort(), ['de', 'en']);
  assert.equal(resolveLocale('de-AT', 'en'), 'de');
  assert.equal(resolveLocale(null, 'de'), 'de');
  assert.equal(resolveLocale('fr', undefined), 'en');
  assert.equal(t('de', 'invoice.number', { number: '2026-000001' }), 'Rechnungsnummer 2026-000001');
  assert.equal(t('fr', 'invoice.title'), 'Invoice');
  // Every catalogue has exactly the reference keys, none empty.
  assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort());
  for (const v of Object.values(de)) assert.ok(v.trim().length > 0);
});
