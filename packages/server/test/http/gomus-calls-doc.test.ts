// docs/gomus-compatibility.md's table of every documented go~mus call and the gomus-calls-*
// test files must agree: every row has a known status, every supported row names a test file
// that has a test named by the row's call, and every call those files test has its row naming
// that file. A call added to a test without its row, or a row whose test was removed, fails here.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCES = path.resolve(here, '../../test/http'); // the .ts sources, also when run compiled
const DOC = path.resolve(here, '../../../../docs/gomus-compatibility.md');
const STATUSES = ['supported', 'supported, with differences', 'not supported'];

interface Row { call: string; status: string; why: string; file: string }

function rows(): Row[] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf('## Every documented go~mus call');
  assert.ok(start >= 0, 'the section "Every documented go~mus call" exists');
  const end = text.indexOf('\n## ', start + 3);
  const out: Row[] = [];
  for (const line of text.slice(start, end < 0 ? undefined : end).split('\n')) {
    const cells = line.trim().split('|').slice(1, -1).map((c) => c.trim());
    const call = /^`([A-Z]+ [^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (call && cells.length === 4) out.push({ call, status: cells[1]!, why: cells[2]!, file: cells[3]! });
  }
  return out;
}

/** The calls a gomus-calls test file tests: `call: '…'` table rows and `test('METHOD /…'` tests. */
function testedCalls(source: string): Set<string> {
  const calls = new Set<string>();
  for (const m of source.matchAll(/(?:call: |test\()'(?:not supported: )?((?:GET|POST|PUT|DELETE) [^']+)'/g)) calls.add(m[1]!);
  for (const m of source.matchAll(/\[\s*'((?:GET|POST|PUT|DELETE) [^']+)',/g)) calls.add(m[1]!);
  return calls;
}

const files = readdirSync(SOURCES).filter((f) => /^gomus-calls-.+\.test\.ts$/.test(f) && f !== 'gomus-calls-doc.test.ts');
const tested = new Map(files.map((f) => [f.replace(/\.test\.ts$/, ''), testedCalls(readFileSync(path.join(SOURCES, f), 'utf8'))]));

test('every row of the call table has a status, a reason where it differs, and a test that exists', () => {
  const all = rows();
  assert.ok(all.length >= 95, `the table lists every documented call (${all.length} rows)`);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const r of all) {
    // A call may have a row in two API parts (orders: reseller and cash point), once per part.
    if (seen.has(`${r.call} ${r.file}`)) problems.push(`${r.call}: listed twice for ${r.file}`);
    seen.add(`${r.call} ${r.file}`);
    if (!STATUSES.includes(r.status)) problems.push(`${r.call}: unknown status "${r.status}"`);
    if (r.status !== 'supported' && r.why === '') problems.push(`${r.call}: "${r.status}" without saying which or why`);
    const calls = tested.get(r.file);
    if (r.status.startsWith('supported') && !calls) problems.push(`${r.call}: test file "${r.file}" does not exist`);
    else if (calls && !calls.has(r.call)) problems.push(`${r.call}: ${r.file}.test.ts has no test named by this call`);
  }
  assert.deepEqual(problems, []);
});

test('every call the gomus-calls test files test has its row naming that file', () => {
  assert.ok(files.length >= 5, files.join(', '));
  const all = rows();
  const problems: string[] = [];
  for (const [file, calls] of tested) {
    for (const call of calls) {
      if (!all.some((r) => r.call === call && r.file === file)) problems.push(`${file}: ${call} has no row naming this file`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the check sees a missing test (control)', () => {
  assert.equal(tested.get('gomus-calls-public')?.has('GET /no-such-call'), false);
  assert.equal(tested.get('gomus-calls-public')?.has('GET /museums'), true);
});
