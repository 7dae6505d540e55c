// The console's catalogue: every key in German and English, and every literal key a template
// or handler uses exists (a typo would show the raw key on the page).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MESSAGES, translator } from '../../src/http/console/i18n.ts';
import { serverRoot } from '../cli/cli.ts';

function files(dir: string, ext: string[]): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : ext.some((e) => f.endsWith(e)) ? [p] : [];
  });
}

test('German and English have the same keys, none empty', () => {
  const de = Object.keys(MESSAGES.de).sort();
  const en = Object.keys(MESSAGES.en).sort();
  assert.deepEqual(de.filter((k) => !en.includes(k)), [], 'missing in English');
  assert.deepEqual(en.filter((k) => !de.includes(k)), [], 'missing in German');
  for (const k of de) assert.ok(MESSAGES.de[k]!.trim() && MESSAGES.en[k]!.trim(), k);
});

test('every literal key used by templates and handlers exists', () => {
  const sources = [
    ...files(path.join(serverRoot, 'src/http/console/views'), ['.eta']),
    ...files(path.join(serverRoot, 'src/http/console/routes'), ['.ts']),
  ];
  const missing: string[] = [];
  for (const f of sources) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/\bt\('([a-z_.]*[a-z_])'/g)) if (!(m[1]! in MESSAGES.en)) missing.push(`${path.basename(f)}: ${m[1]}`);
    for (const m of text.matchAll(/\bkey: '([a-z_.]*[a-z_])'/g)) if (!(m[1]! in MESSAGES.en)) missing.push(`${path.basename(f)}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test('placeholders are filled, unknown keys fall back visibly', () => {
  assert.equal(translator('de')('orders.order', { id: 7 }), 'Bestellung 7');
  assert.equal(translator('en')('no.such.key'), 'no.such.key');
});
