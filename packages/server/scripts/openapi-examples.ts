// `node --import tsx scripts/openapi-examples.ts DIR`: refreshes src/http/api/openapi-examples.json,
// the request and response examples of the OpenAPI document, from real answers: the traffic the
// test suite recorded with ATRIUM_TRAFFIC_DIR=DIR (test/helpers/traffic.ts; .ci/run records it).
// For each operation of the committed openapi/openapi.json it keeps the first 2xx answer (and
// the request body that produced it) that validates against the document, shortens long lists,
// and replaces secrets by placeholders. Operations without recorded traffic keep their old
// example. test/contract/openapi-examples.test.ts checks every example against its schema.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { TrafficRecord } from '../test/helpers/traffic.ts';
import { EXAMPLES_FILE, type Examples } from '../src/http/api/openapi-examples.ts';
import { templateOf } from './validate-traffic.ts';

type Obj = Record<string, any>;
const here = path.dirname(fileURLToPath(import.meta.url));
const OPENAPI_FILE = path.resolve(here, '../../../openapi/openapi.json');
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Long lists make poor examples: three items show the shape. */
const MAX_ITEMS = 3;
/** Keys whose values are secrets shown once; their examples are placeholders of the same form. */
const SECRET_KEYS = /^(secret|password|api_key|access_token|webhook_secret|signing_secret)$/;

export function tidy(v: unknown, key = '', maxItems = MAX_ITEMS): unknown {
  if (Array.isArray(v)) return v.slice(0, maxItems).map((x) => tidy(x, '', maxItems));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tidy(x, k, maxItems)]));
  if (typeof v === 'string') {
    // Account tokens (atr_<instance>_<secret>) and webhook secrets: keep the form, drop the secret.
    if (/^atr_[a-z0-9]+_/.test(v)) return v.replace(/^(atr_[a-z0-9]+_).*$/, '$1') + 'EXAMPLEexampleEXAMPLEexample0';
    if (SECRET_KEYS.test(key)) return 'EXAMPLEexampleEXAMPLEexample0';
  }
  return v;
}

function main(dir: string): void {
  const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as Obj;
  const ajv = new Ajv2020({ strict: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const valid = (pointer: string, value: unknown) => ajv.compile({ $ref: `openapi.json#${pointer}` })(value);

  const old: Examples = fs.existsSync(EXAMPLES_FILE) ? JSON.parse(fs.readFileSync(EXAMPLES_FILE, 'utf8')) : {};
  const out: Examples = {};
  const records: TrafficRecord[] = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as TrafficRecord));

  for (const [p, item] of Object.entries<Obj>(doc.paths)) {
    for (const [method, op] of Object.entries<Obj>(item)) {
      if (!op?.operationId) continue;
      const id = op.operationId as string;
      const mine = records.filter((r) => templateOf(r.route) === p && r.method.toLowerCase() === method);
      const entry: Examples[string] = { responses: { ...(old[id]?.responses ?? {}) } };
      for (const [status, res] of Object.entries<Obj>(op.responses ?? {})) {
        // Shared error answers have one example per status (src/http/api/openapi-examples.ts).
        const json = res.content?.['application/json'];
        if (!json || /ErrorBody/.test(String(json.schema?.$ref ?? ''))) continue;
        const pointer = `/paths/${escape(p)}/${method}/responses/${status}/content/application~1json/schema`;
        const pick = mine
          .filter((r) => String(r.status) === status && r.body)
          .flatMap((r) => variants(r.body!).map((value) => ({ r, value })))
          // A list with items shows more than an empty one.
          .sort((a, b) => Number(isEmptyList(a.value)) - Number(isEmptyList(b.value)))
          .find((c) => valid(pointer, c.value));
        if (pick) {
          entry.responses[status] = pick.value;
          const body = op.requestBody?.content?.['application/json'];
          if (body && pick.r.requestBody && pick.r.status < 300) {
            const sent = variants(pick.r.requestBody).filter(plainKeys).find((v) => valid(`/paths/${escape(p)}/${method}/requestBody/content/application~1json/schema`, v));
            if (sent !== undefined) entry.request = sent;
          }
        }
      }
      if (op.requestBody?.content?.['application/json'] && entry.request === undefined) {
        const pointer = `/paths/${escape(p)}/${method}/requestBody/content/application~1json/schema`;
        const sent = mine
          .filter((r) => r.requestBody !== undefined && r.status >= 200 && r.status < 300)
          .flatMap((r) => variants(r.requestBody!))
          .filter(plainKeys)
          .find((v) => valid(pointer, v));
        const value = sent ?? old[id]?.request;
        if (value !== undefined) entry.request = value;
      }
      if (entry.request !== undefined || Object.keys(entry.responses).length > 0) out[id] = entry;
    }
  }
  const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(EXAMPLES_FILE, JSON.stringify(sorted, null, 2) + '\n');
  const missing = Object.values<Obj>(doc.paths).flatMap((i) => Object.values<Obj>(i)).filter((op) => op?.operationId && !out[op.operationId]);
  console.log(`${Object.keys(out).length} operations with examples; without: ${missing.map((op) => op.operationId).join(', ') || 'none'}`);
}

/**
 * The contract fuzzer sends bodies with random extra keys that the server ignores and Ajv lets
 * through where a schema combines `anyOf` with `unevaluatedProperties`; Redocly does not. An
 * example shows what a partner sends, so keys must be plain names.
 */
function plainKeys(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(plainKeys);
  if (v === null || typeof v !== 'object') return true;
  return Object.entries(v).every(([k, x]) => /^[A-Za-z0-9_]+$/.test(k) && plainKeys(x));
}

/** A recorded body as an example: lists shortened, or whole where a schema fixes their length. */
function variants(json: string): unknown[] {
  const raw = JSON.parse(json) as unknown;
  return [tidy(raw), tidy(raw, '', Number.MAX_SAFE_INTEGER)];
}

function isEmptyList(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const lists = Object.values(v).filter(Array.isArray);
  const data = (v as Obj).data;
  return (lists.length > 0 && lists.every((l) => l.length === 0)) || (data && typeof data === 'object' && Object.keys(data).length === 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node --import tsx scripts/openapi-examples.ts TRAFFIC_DIR');
    process.exit(2);
  }
  main(dir);
}
