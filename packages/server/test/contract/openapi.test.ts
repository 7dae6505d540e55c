// The committed OpenAPI document (openapi/openapi.json) is the contract the SDK and integrators
// build on, so it must be exactly what the code generates today, and every /api/v4 operation must
// document who may call it and how it fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_FILE, renderOpenApi } from '../../scripts/openapi.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp();
after(() => t.close());
await t.app.ready();

type Operation = {
  'x-token-classes'?: string[];
  'x-user-right'?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown[];
  responses?: Record<string, unknown>;
  tags?: string[];
  summary?: string;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
};

const generated = renderOpenApi(t.app.swagger());
const doc = JSON.parse(generated) as Doc;
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'head']);

function apiOperations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/api/v4/'))
    .flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([m]) => HTTP_METHODS.has(m))
        .map(([m, op]) => [p, m, op] as [string, string, Operation]),
    );
}

/**
 * Every (path, method) the router knows, from `printRoutes`' tree: each line is an indented path
 * segment that continues its parent's path, followed by its methods in parentheses. Routes that
 * share a parametric segment under different names print it as `/:id|:event_id`, so each route
 * comes with every spelling it may have; one of them must be documented.
 */
function registeredRoutes(app: FastifyInstance): Array<{ method: string; candidates: string[] }> {
  const stack: string[][] = [];
  const out: Array<{ method: string; candidates: string[] }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    // "/:id|:event_id" → ["/:id", "/:event_id"]
    const [first, ...rest] = m[2]!.split('|');
    const prefix = first!.slice(0, first!.lastIndexOf(':'));
    stack.push([first!, ...rest.map((alt) => prefix + alt)]);
    const candidates = stack.reduce<string[]>((acc, seg) => acc.flatMap((a) => seg.map((s) => a + s)), ['']);
    const toOpenApi = (p: string) => p.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    for (const method of (m[3] ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
      out.push({ method, candidates: candidates.map(toOpenApi) });
    }
  }
  return out;
}

/** A parameter the validator can refuse: required in the query, or anything but a free string. */
function canFailValidation(param: unknown): boolean {
  const p = param as { in?: string; required?: boolean; schema?: Record<string, unknown> };
  if (p.in === 'query' && p.required) return true;
  const schema = p.schema ?? {};
  if (schema.type !== 'string') return true;
  return ['minLength', 'maxLength', 'pattern', 'format', 'enum', 'const'].some((k) => k in schema);
}

describe('OpenAPI document', () => {
  test('openapi/openapi.json is the document the code generates', () => {
    const committed = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
    assert.ok(committed === generated, 'openapi/openapi.json is stale: run npm run openapi');
  });

  test('it is OpenAPI 3.1 and every $ref resolves inside the document', () => {
    assert.equal(doc.openapi, '3.1.0');
    const refs = new Set<string>();
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string') refs.add(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    assert.ok(refs.has('#/components/schemas/ErrorBody'), 'error responses reference the ErrorBody component');
    for (const ref of refs) {
      assert.match(ref, /^#\//, `${ref} is a local reference`);
      let node: unknown = doc;
      for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
      assert.ok(node && typeof node === 'object', `${ref} resolves`);
    }
    const errorBody = doc.components?.schemas?.ErrorBody as { required?: string[] } | undefined;
    assert.deepEqual(errorBody?.required, ['error', 'code', 'request_id']);
  });

  test('every /api/v4 route the server answers is documented', () => {
    const routes = registeredRoutes(t.app).filter((r) => r.candidates[0]!.startsWith('/api/v4/') && r.method !== 'HEAD');
    assert.ok(routes.length >= 3, `routes were found (${routes.length})`);
    const missing = routes
      .filter((r) => !r.candidates.some((p) => doc.paths[p]?.[r.method.toLowerCase()]))
      .map((r) => `${r.method} ${r.candidates.join(' or ')}`);
    assert.deepEqual(missing, [], `routes missing from the document:\n  ${missing.join('\n  ')}`);
  });

  test('every /api/v4 operation declares token classes, security, tags and its error responses', () => {
    const ops = apiOperations();
    assert.ok(ops.length >= 3);
    // Collected rather than asserted one by one, so one run names every gap at once.
    const problems: string[] = [];
    const check = (ok: unknown, what: string) => void (ok || problems.push(what));
    for (const [p, m, op] of ops) {
      const where = `${m.toUpperCase()} ${p}`;
      const classes = op['x-token-classes'] ?? [];
      check(classes.length > 0, `${where}: x-token-classes`);
      for (const c of classes) check(['anonymous', 'public', 'user', 'reseller', 'entry'].includes(c), `${where}: class ${c}`);
      check(Array.isArray(op.security) && op.security.length > 0, `${where}: security`);
      check(op.tags && op.tags.length > 0, `${where}: tags`);
      check(op.summary, `${where}: summary`);
      const statuses = Object.keys(op.responses ?? {});
      check(statuses.some((s) => /^2\d\d$/.test(s)), `${where}: a success response`);
      const errors = statuses.filter((s) => /^4\d\d$/.test(s));
      // What the access hook and the validator can answer on this route must be documented too.
      check(errors.includes('401'), `${where}: 401 (a bad token is refused on every endpoint)`);
      if (!classes.includes('anonymous')) {
        check(!(op.security ?? []).some((s) => Object.keys(s as object).length === 0), `${where}: security requires a token`);
      }
      if (op['x-user-right'] || ['public', 'user', 'reseller'].some((c) => !classes.includes(c))) {
        check(errors.includes('403'), `${where}: 403 (some token classes or rights are refused)`);
      }
      if (op.requestBody || (op.parameters ?? []).some(canFailValidation)) {
        check(errors.includes('422'), `${where}: 422 (parameters or body are validated)`);
      }
      if ((op.requestBody as { content?: Record<string, unknown> } | undefined)?.content?.['application/json']) {
        check(errors.includes('400'), `${where}: 400 (a body that is not JSON is refused before validation)`);
      }
      for (const s of errors) {
        const body = op.responses![s] as { content?: Record<string, { schema?: { $ref?: string } }> };
        check(body.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorBody', `${where} ${s}: ErrorBody`);
      }
    }
    assert.deepEqual(problems, [], `undocumented in the OpenAPI document:\n  ${problems.join('\n  ')}`);
  });

  test('every operation has a unique operationId and documents 401, 429 and 503 with their headers', () => {
    const ids = new Map<string, string>();
    for (const [p, m, op] of apiOperations()) {
      const where = `${m.toUpperCase()} ${p}`;
      const o = op as Operation & { operationId?: string; description?: string; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> };
      assert.match(o.operationId ?? '', /^[a-z][A-Za-z0-9]+$/, `${where}: operationId`);
      assert.ok(!ids.has(o.operationId!), `${where}: operationId ${o.operationId} also used by ${ids.get(o.operationId!)}`);
      ids.set(o.operationId!, where);
      assert.ok(o.summary && o.description, `${where}: summary and description`);
      for (const s of ['401', '429', '503']) assert.ok(o.responses[s], `${where}: documents ${s}`);
      assert.ok(o.responses['429']!.headers?.['Retry-After'], `${where}: 429 names Retry-After`);
      if (o.responses['304']) assert.equal(o.responses['304'].content, undefined, `${where}: a 304 has no body`);
      for (const [status, res] of Object.entries(o.responses)) {
        for (const [media, c] of Object.entries(res.content ?? {})) {
          const binary = (c as { schema?: { format?: string } }).schema?.format === 'binary';
          assert.ok(!(binary && media === 'application/json'), `${where} → ${status}: a binary body is not application/json`);
        }
      }
    }
  });

  test('the served document at /api-docs/openapi.json is the same document', async () => {
    const res = await t.request({ method: 'GET', url: '/api-docs/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.equal(renderOpenApi(res.json()), generated);
  });
});
