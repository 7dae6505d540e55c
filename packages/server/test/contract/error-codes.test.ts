// docs/errors.md is what integrators read to handle failures, so it must cover every code the
// server can send, with the status the server really uses and an example body of the real shape.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { STATUS } from '../../src/http/status.ts';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/errors.md');
const text = fs.readFileSync(DOC, 'utf8');

/** Sections are `### \`CODE\` · STATUS` headings; each runs until the next heading of level 2 or 3. */
function sections(): Map<string, { status: number; body: string }> {
  const out = new Map<string, { status: number; body: string }>();
  const parts = text.split(/^(?=#{2,3} )/m);
  for (const part of parts) {
    const m = /^### `([A-Z_]+)` · (\d{3})\s*\n/.exec(part);
    if (!m) continue;
    assert.ok(!out.has(m[1]!), `${m[1]} has only one section`);
    out.set(m[1]!, { status: Number(m[2]), body: part.slice(m[0].length) });
  }
  return out;
}

describe('error codes', () => {
  const docs = sections();

  test('every code has a status in the STATUS table', () => {
    for (const code of ERROR_CODES) {
      const status = STATUS[code];
      // The one exception: 202 while a document is processed (spec 7.1) has the error body shape.
      const ok = code === 'DOCUMENT_PROCESSING' ? status === 202 : status >= 400 && status <= 599;
      assert.ok(Number.isInteger(status) && ok, `${code} has a 4xx/5xx status`);
    }
    assert.deepEqual(Object.keys(STATUS).sort(), [...ERROR_CODES].sort(), 'STATUS has no codes beyond ERROR_CODES');
  });

  test('every code has a section in docs/errors.md with the status the server uses', () => {
    for (const code of ERROR_CODES) {
      const section = docs.get(code);
      assert.ok(section, `docs/errors.md has a section "### \`${code}\` · ${STATUS[code]}"`);
      assert.equal(section.status, STATUS[code], `docs/errors.md gives ${code} the status ${STATUS[code]}`);
      assert.match(section.body, /Client: \S/, `${code}: the client reaction is stated`);
    }
    for (const code of docs.keys()) {
      assert.ok((ERROR_CODES as readonly string[]).includes(code), `docs/errors.md documents ${code}, which is not a code`);
    }
  });

  test('every section shows an example body of exactly the spec shape with its own code', () => {
    for (const [code, section] of docs) {
      const m = /```json\n(.*?)\n```/s.exec(section.body);
      assert.ok(m, `${code}: an example body`);
      const body = JSON.parse(m[1]!) as Record<string, unknown>;
      assert.equal(body.code, code, `${code}: the example carries its own code`);
      assert.equal(typeof body.error, 'string');
      assert.equal(typeof body.request_id, 'string');
      if ('errors' in body) assert.ok(Array.isArray(body.errors));
      const keys = Object.keys(body).filter((k) => k !== 'errors');
      assert.deepEqual(keys, ['error', 'code', 'request_id'], `${code}: keys of the example`);
    }
  });
});
