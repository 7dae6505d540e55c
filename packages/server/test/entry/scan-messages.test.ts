// What the gate is told, in words: the /scan page in German and English (?lang=en, or the
// device's Accept-Language), and the
// verdict texts with the time a ticket was used or its entry opens, and the exit of a ticket that
// was never admitted (not_entered, not already_used).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scanMessage } from '../../src/domain/entry/messages.ts';
import { scanLang } from '../../src/http/scan/lang.ts';
import { entryFixture, type EntryFixture } from './support.ts';

let x: EntryFixture;
before(async () => {
  x = await entryFixture();
});
after(() => x.t.close());

const textsOf = (html: string) => JSON.parse(/data-texts="([^"]*)"/.exec(html)![1]!.replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n))));

describe('the scan page in its language', () => {
  test('German by default, English with ?lang=en, every placeholder filled', async () => {
    const de = await x.t.app.inject({ method: 'GET', url: '/scan' });
    const en = await x.t.app.inject({ method: 'GET', url: '/scan?lang=en' });
    for (const r of [de, en]) {
      assert.equal(r.statusCode, 200);
      assert.doesNotMatch(r.body, /\{\{/);
      assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
    }
    assert.match(de.body, /<html lang="de">/);
    assert.match(de.body, />Anmelden</);
    assert.match(de.body, /> Ausgang</);
    assert.equal(textsOf(de.body).usedAt, 'Bereits benutzt um {time}');
    assert.match(en.body, /<html lang="en">/);
    assert.match(en.body, />Sign in</);
    assert.match(en.body, /> Exit</);
    assert.doesNotMatch(en.body, /Anmelden|Eingang|Prüfen/);
    assert.equal(textsOf(en.body).opensAt, 'Not valid yet – entry from {time}');
    assert.equal(en.headers['content-language'], 'en');
  });

  test('without ?lang the device language decides (Accept-Language), else the instance default', async () => {
    const get = (headers: Record<string, string>, q = '') => x.t.app.inject({ method: 'GET', url: `/scan${q}`, headers });
    const en = await get({ 'accept-language': 'fr-CH, en-GB;q=0.8, de;q=0.7' });
    assert.match(en.body, /<html lang="en">/);
    assert.equal(en.headers['content-language'], 'en');
    assert.match(String(en.headers.vary), /Accept-Language/);
    assert.match((await get({ 'accept-language': 'en;q=0.3, de-AT;q=0.9' })).body, /<html lang="de">/, 'by q-value, not by order');
    assert.match((await get({ 'accept-language': 'en-US' }, '?lang=de')).body, /<html lang="de">/, '?lang wins');
    // Neither de nor en asked for: the instance's first locale (de here; en on an English instance).
    assert.match((await get({ 'accept-language': 'fr, it;q=0.5' })).body, /<html lang="de">/);
    assert.equal(scanLang(undefined, 'fr, it;q=0.5', ['en', 'de']), 'en');
    assert.equal(scanLang(undefined, undefined, ['en-GB']), 'en');
    assert.equal(scanLang(undefined, 'en;q=0', ['de']), 'de', 'q=0 means not wanted');
  });
});

describe('verdict texts', () => {
  test('already used says when, not yet valid says when entry opens (museum time)', async () => {
    const { codes } = await x.buySlot(2, 840); // 14:00, entry from 13:45
    x.t.clock.set(x.at(800));
    const early = (await x.scan(x.gateA, { barcode: codes[0]!, direction: 'entry' })).body.scan;
    assert.deepEqual([early.result, early.message], ['not_yet_valid', 'Noch nicht gültig – Einlass ab 13:45']);
    assert.match(early.entry_opens_at, /T13:45:00\+0[12]:00$/);
    x.t.clock.set(x.at(842));
    assert.equal((await x.scan(x.gateA, { barcode: codes[0]!, direction: 'entry' })).body.scan.result, 'valid');
    x.t.clock.set(x.at(850));
    const again = (await x.scan(x.gateA, { barcode: codes[0]!, direction: 'entry' })).body.scan;
    assert.deepEqual([again.result, again.message], ['already_used', 'Bereits benutzt um 14:02']);
    assert.match(again.used_at, /T14:02:00\+0[12]:00$/);
  });

  test('an exit of a ticket never admitted is not_entered, with a plain reason', async () => {
    const { codes } = await x.buySlot(1, 600);
    x.t.clock.set(x.at(605));
    const exit = (await x.scan(x.gateA, { barcode: codes[0]!, direction: 'exit' })).body.scan;
    assert.deepEqual([exit.result, exit.is_valid, exit.message], ['not_entered', false, 'Nicht eingelassen – kein Eintritt erfasst']);
    // It did not use the ticket: the holder still gets in.
    assert.equal((await x.scan(x.gateA, { barcode: codes[0]!, direction: 'entry' })).body.scan.result, 'valid');
  });

  test('the same texts in English, with the date when it is another day', () => {
    const zone = 'Europe/Berlin';
    const scannedAt = new Date('2026-11-27T09:00:00Z');
    const times = { usedAt: new Date('2026-11-27T09:42:00Z'), opensAt: new Date('2026-11-28T12:45:00Z'), scannedAt, zone };
    assert.equal(scanMessage('en', 'entry', 'already_used', times), 'Already used at 10:42');
    assert.equal(scanMessage('en', 'entry', 'not_yet_valid', times), 'Not valid yet – entry from 28 Nov, 13:45');
    assert.equal(scanMessage('de', 'entry', 'not_yet_valid', times), 'Noch nicht gültig – Einlass ab 28.11., 13:45');
    assert.equal(scanMessage('en', 'exit', 'not_entered'), 'Not entered – no entry recorded');
    assert.equal(scanMessage('en', 'exit', 'already_used'), 'Already checked out');
  });
});
