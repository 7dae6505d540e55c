// `node --import tsx scripts/validate-traffic.ts DIR`: checks every answer the test suite recorded
// (test/helpers/traffic.ts, with ATRIUM_TRAFFIC_DIR=DIR) against the committed OpenAPI document,
// the way a validating proxy in front of the server would: the route and method exist, the status
// is documented, the media type is one the document declares (none for 304/204), and a JSON body
// matches the declared schema. Prints each kind of mismatch once with a count, and exits 1 if any.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { TrafficRecord } from '../test/helpers/traffic.ts';

const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../openapi/openapi.json');

type Obj = Record<string, any>;

export interface Mismatch {
  key: string;
  detail: string;
}

/** Fastify's `/api/v4/tickets/:id` is the document's `/api/v4/tickets/{id}`. */
export const templateOf = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function makeValidator(doc: Obj) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();

  return (r: TrafficRecord): Mismatch | null => {
    const tpl = templateOf(r.route);
    const method = r.method.toLowerCase();
    const op: Obj | undefined = doc.paths?.[tpl]?.[method === 'head' ? 'get' : method];
    const where = `${r.method} ${tpl}`;
    if (!op) return { key: `${where}: undocumented operation`, detail: '' };
    const status = String(r.status);
    const res: Obj | undefined = op.responses?.[status] ?? op.responses?.[`${status[0]}XX`] ?? op.responses?.default;
    if (!res) return { key: `${where} → ${status}: status not documented`, detail: '' };
    const content: Obj | undefined = res.content;
    const media = (r.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!content || Object.keys(content).length === 0) {
      return media && r.status !== 204 && r.status !== 304 && method !== 'head'
        ? { key: `${where} → ${status}: sends ${media} but the document declares no body`, detail: '' }
        : null;
    }
    if (r.status === 304 || method === 'head') return null;
    if (!media) return { key: `${where} → ${status}: no Content-Type, document declares ${Object.keys(content).join(', ')}`, detail: '' };
    const declared = content[media] ? media : Object.keys(content).find((m) => m === '*/*');
    if (!declared) return { key: `${where} → ${status}: ${media} not among ${Object.keys(content).join(', ')}`, detail: '' };
    if (r.body === undefined || !/json/.test(media)) return null;
    const pointer = `openapi.json#/paths/${escape(tpl)}/${method}/responses/${status in op.responses ? status : `${status[0]}XX`}/content/${escape(declared)}/schema`;
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: pointer });
      compiled.set(pointer, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      return { key: `${where} → ${status}: body is not JSON`, detail: r.body.slice(0, 200) };
    }
    if (validate(body)) return null;
    const e = validate.errors?.[0];
    return {
      key: `${where} → ${status}: body ${e?.instancePath || '/'} ${e?.message ?? 'does not match'}`,
      detail: JSON.stringify(e?.params ?? {}).slice(0, 200),
    };
  };
}

export function validateDir(dir: string, doc: Obj): { answers: number; mismatches: Map<string, { n: number; detail: string }> } {
  const check = makeValidator(doc);
  const mismatches = new Map<string, { n: number; detail: string }>();
  let answers = 0;
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      answers += 1;
      const m = check(JSON.parse(line) as TrafficRecord);
      if (!m) continue;
      const seen = mismatches.get(m.key);
      if (seen) seen.n += 1;
      else mismatches.set(m.key, { n: 1, detail: m.detail });
    }
  }
  return { answers, mismatches };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir)) {
    process.stderr.write('usage: validate-traffic.ts DIR (a directory of traffic-*.jsonl written with ATRIUM_TRAFFIC_DIR=DIR npm test)\n');
    process.exit(2);
  }
  const doc = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as Obj;
  const { answers, mismatches } = validateDir(dir, doc);
  let total = 0;
  for (const [key, { n, detail }] of [...mismatches].sort((a, b) => b[1].n - a[1].n)) {
    total += n;
    process.stdout.write(`✖ ${n}× ${key}${detail ? `  ${detail}` : ''}\n`);
  }
  process.stdout.write(`openapi replay: ${answers} recorded answers, ${total} mismatches (${mismatches.size} kinds)\n`);
  process.exit(total === 0 && answers > 0 ? 0 : 1);
}
