// The CSV writer (src/domain/reports/csv.ts): what German Excel needs byte for byte, and that no
// text cell can start a formula while our own negative amounts stay numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents, formatNumber, toCsv } from '../../src/domain/reports/csv.ts';

test('BOM, semicolons, CRLF after every line, every field quoted', () => {
  const out = toCsv(['Tag', 'Brutto'], [['2026-11-24', { cents: 1400 }], ['Führung „Große Halle“', { cents: 5 }]]);
  assert.equal(out, '\uFEFF"Tag";"Brutto"\r\n"2026-11-24";"14,00"\r\n"Führung „Große Halle“";"0,05"\r\n');
  // UTF-8 on the wire: the BOM is EF BB BF, umlauts are two bytes.
  const bytes = Buffer.from(out, 'utf8');
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
});

test('decimal comma for cents and rates; negative amounts stay numbers', () => {
  assert.equal(formatCents(0), '0,00');
  assert.equal(formatCents(7), '0,07');
  assert.equal(formatCents(123456), '1234,56');
  assert.equal(formatCents(-1250), '-12,50');
  assert.equal(formatCents(-5), '-0,05');
  assert.equal(formatNumber(5.5), '5,5');
  assert.equal(formatNumber(19), '19');
  assert.equal(formatNumber(-3), '-3');
  assert.throws(() => formatCents(1.5), /integer/);
  assert.throws(() => formatNumber(Number.NaN), /finite/);
  assert.equal(toCsv(['a'], [[{ cents: -1250 }], [{ number: -2 }]]), '\uFEFF"a"\r\n"-12,50"\r\n"-2"\r\n');
});

test('text starting with = + - @ tab or CR is defused with an apostrophe', () => {
  const evil = ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];
  const out = toCsv(['h'], evil.map((e) => [e]));
  const lines = out.slice(1).split('\r\n').slice(1, -1);
  assert.deepEqual(lines, [
    '"\'=HYPERLINK(""http://x"",""y"")"',
    '"\'+1+2"',
    '"\'-2+3"',
    '"\'@SUM(A1)"',
    '"\'\t=1"',
    '"\'\r=1"',
  ]);
  // Harmless text is left alone, inner quotes doubled, empty cells empty.
  assert.equal(toCsv(['x', 'y', 'z'], [['a "b" c', null, 'a=b']]), '\uFEFF"x";"y";"z"\r\n"a ""b"" c";"";"a=b"\r\n');
  // The header is text too.
  assert.ok(toCsv(['=cmd'], []).startsWith('\uFEFF"\'=cmd"'));
});

test('semicolons and line breaks inside a field stay inside its quotes', () => {
  assert.equal(toCsv(['h'], [['a;b\r\nc']]), '\uFEFF"h"\r\n"a;b\r\nc"\r\n');
});
