// Request arbitraries for one operation: a valid request (every parameter and body field drawn
// from its schema, with real ids) and invalid variants of it (a value replaced by a hostile one, a
// required field dropped, an unknown field added, the body replaced or not JSON at all).
import fc from 'fast-check';
import type { Operation } from './contract.ts';
import type { Pools } from './fixtures.ts';
import { hostile, rawQuery, validValue } from './values.ts';

export interface Parts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined: no body sent. */
  body?: unknown;
  /** A raw payload (sent as is, with `contentType`) instead of the JSON body. */
  raw?: string;
  contentType?: string;
  rawQuery?: string;
}

export interface FuzzRequest {
  kind: 'valid' | 'invalid';
  /** What was changed, for the failure report. */
  mutation: string;
  parts: Parts;
}

function validParts(op: Operation, pools: Pools): fc.Arbitrary<Parts> {
  const path: Record<string, fc.Arbitrary<unknown>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const p of op.params) {
    if (p.in === 'path') path[p.name] = validValue(p.schema, p.name, pools, op);
    else if (p.in === 'query') {
      query[p.name] = validValue(p.schema, p.name, pools);
      if (p.required) required.push(p.name);
    }
  }
  const body = op.body ? validValue(op.body, 'body', pools) : fc.constant(undefined);
  return fc.record({
    path: fc.record(path),
    query: fc.record(query, { requiredKeys: required }),
    body,
  }) as fc.Arbitrary<Parts>;
}

/** Every JSON path inside a value (objects and arrays), the root excluded. */
function pathsOf(v: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...prefix, i], ...pathsOf(x, [...prefix, i])]);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...pathsOf(x, [...prefix, k])]);
  return [];
}

function setAt(root: unknown, path: Array<string | number>, f: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(root);
  let node: any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  f(node, path[path.length - 1]!);
  return copy;
}

function safeToMutate(parts: Parts): boolean {
  return parts.body === undefined || parts.body === null || typeof parts.body === 'object';
}

const RAW_BODIES = ['{', '{"items": [}', '[1,2', 'null', '""', '\u0000', '{"a":1}{"b":2}', '{"__proto__": {"x": 1}}', 'ÿþ{', ''];
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'];

function invalidParts(op: Operation, pools: Pools): fc.Arbitrary<{ parts: Parts; mutation: string }> {
  const base = validParts(op, pools);
  const pathNames = op.params.filter((p) => p.in === 'path').map((p) => p.name);
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  const strategies: Array<fc.Arbitrary<{ parts: Parts; mutation: string }>> = [
    fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }), hostile).map(([p, k, v]) => ({
      parts: { ...p, query: { ...p.query, [`x_${k}`]: v } },
      mutation: `extra query x_${k}`,
    })),
    fc.tuple(base, rawQuery).map(([p, q]) => ({ parts: { ...p, rawQuery: q }, mutation: `raw query ${q}` })),
  ];
  if (queryNames.length) {
    strategies.push(
      fc.tuple(base, fc.constantFrom(...queryNames), hostile).map(([p, k, v]) => ({ parts: { ...p, query: { ...p.query, [k]: v } }, mutation: `query ${k}` })),
    );
  }
  if (pathNames.length) {
    const weird = hostile.map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)));
    strategies.push(
      fc.tuple(base, fc.constantFrom(...pathNames), weird).map(([p, k, v]) => ({ parts: { ...p, path: { ...p.path, [k]: v } }, mutation: `path ${k}` })),
    );
  }
  if (op.body) {
    strategies.push(
      fc.tuple(base, fc.nat(), hostile).map(([p, i, v]) => {
        const paths = pathsOf(p.body);
        if (!safeToMutate(p) || paths.length === 0) return { parts: { ...p, body: v }, mutation: 'body replaced' };
        const at = paths[i % paths.length]!;
        return { parts: { ...p, body: setAt(p.body, at, (o, k) => (o[k] = v)) }, mutation: `body ${at.join('.')}` };
      }),
      fc.tuple(base, fc.nat()).map(([p, i]) => {
        const paths = pathsOf(p.body).filter((x) => typeof x[x.length - 1] === 'string');
        if (!safeToMutate(p) || paths.length === 0) return { parts: { ...p, body: {} }, mutation: 'body emptied' };
        const at = paths[i % paths.length]!;
        return { parts: { ...p, body: setAt(p.body, at, (o, k) => delete o[k]) }, mutation: `missing ${at.join('.')}` };
      }),
      fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }), hostile).map(([p, k, v]) => ({
        parts: { ...p, body: p.body && typeof p.body === 'object' && !Array.isArray(p.body) ? { ...p.body, [`x_${k}`]: v } : v },
        mutation: `extra field x_${k}`,
      })),
      fc.tuple(base, hostile).map(([p, v]) => ({ parts: { ...p, body: v }, mutation: 'body replaced' })),
      fc.tuple(base, fc.constantFrom(...RAW_BODIES)).map(([p, raw]) => ({
        parts: { ...p, raw, contentType: 'application/json' },
        mutation: `raw body ${JSON.stringify(raw)}`,
      })),
      fc.tuple(base, fc.constantFrom(...CONTENT_TYPES)).map(([p, ct]) => ({
        parts: { ...p, raw: JSON.stringify(p.body ?? {}), contentType: ct },
        mutation: `content type ${ct}`,
      })),
    );
  }
  return fc.oneof(...strategies);
}

export function requestArbitrary(op: Operation, pools: Pools): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: validParts(op, pools).map((parts) => ({ kind: 'valid' as const, mutation: 'none', parts })), weight: 2 },
    { arbitrary: invalidParts(op, pools).map(({ parts, mutation }) => ({ kind: 'invalid' as const, mutation, parts })), weight: 3 },
  );
}
