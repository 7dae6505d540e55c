// The contract the fuzzer checks answers against: the committed openapi/openapi.json (what
// integrators and the SDK build on), not the live route schemas, so a drift between the two shows
// up as a failure. Response schemas are compiled once with ajv; `$ref`s are inlined first because
// the document's only components are local (#/components/schemas/...).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

export const OPENAPI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../openapi/openapi.json');

export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI path with `{name}` placeholders. */
  path: string;
  key: string;
  params: Param[];
  body: Schema | undefined;
  bodyRequired: boolean;
  classes: string[];
  /** status → validator of the JSON body (undefined: no body documented, e.g. 204). */
  responses: Map<number, ValidateFunction | undefined>;
  /** status → the other media types documented for it (e.g. text/csv of a report). */
  otherTypes: Map<number, string[]>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function inline(node: unknown, doc: Schema, depth = 0): any {
  if (depth > 50) throw new Error('$ref nesting too deep');
  if (Array.isArray(node)) return node.map((x) => inline(x, doc, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Schema;
  if (typeof obj.$ref === 'string') {
    let target: any = doc;
    for (const part of obj.$ref.replace(/^#\//, '').split('/')) target = target?.[part];
    if (!target) throw new Error(`unresolved ${obj.$ref}`);
    return inline(target, doc, depth + 1);
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, inline(v, doc, depth + 1)]));
}

/** Drops OpenAPI-only keywords ajv's strict mode would otherwise question. */
function forAjv(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === 'example' || k === 'examples' ? undefined : v)));
}

export function loadContract(file = OPENAPI_PATH): { operations: Operation[]; doc: Schema } {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Schema;
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  // Many responses share a schema (every error answer, most lists' pages): each distinct one is
  // compiled once.
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: Schema): ValidateFunction => {
    const clean = forAjv(schema);
    const key = JSON.stringify(clean);
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(clean)));
    return validate;
  };
  const operations: Operation[] = [];
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Schema>)) {
    if (!p.startsWith('/api/v4/')) continue;
    for (const [m, rawOp] of Object.entries(ops)) {
      if (!METHODS.has(m)) continue;
      const op = inline(rawOp, doc) as Schema;
      const responses = new Map<number, ValidateFunction | undefined>();
      const otherTypes = new Map<number, string[]>();
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
        const schema = r.content?.['application/json']?.schema;
        responses.set(Number(status), schema ? compile(schema) : undefined);
        otherTypes.set(Number(status), Object.keys(r.content ?? {}).filter((t) => t !== 'application/json'));
      }
      const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      operations.push({
        method: m.toUpperCase(),
        path: p,
        key: `${m.toUpperCase()} ${p.slice('/api/v4'.length)}`,
        params: ((op.parameters ?? []) as Schema[]).map((x) => ({
          name: x.name,
          in: x.in,
          required: Boolean(x.required),
          schema: x.schema ?? {},
        })),
        body,
        bodyRequired: Boolean(op.requestBody?.required),
        classes: op['x-token-classes'] ?? [],
        responses,
        otherTypes,
      });
    }
  }
  return { operations, doc };
}
