// The client's generated sources follow openapi/openapi.json, and the client covers every operation
// in it. When the server grows a route, `npm run openapi` then `npm run generate -w @atrium/client`
// bring both up to date; these tests fail until they are.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { registeredOperations } from '@atrium/client';
import { generateSources, SHAPES_FILE, TYPES_FILE } from '../scripts/generate.ts';
import { OPENAPI } from './helpers/env.ts';

// Paths the server mounts twice (go~mus aliases); the client calls the canonical one.
const ALIASES: Record<string, string> = { '/api/v4/tickets/reservations': '/api/v4/reservations' };

describe('generated client sources', () => {
  test('src/generated/* match openapi/openapi.json (run `npm run generate -w @atrium/client`)', async () => {
    const { types, shapes } = await generateSources();
    assert.ok(types === fs.readFileSync(TYPES_FILE, 'utf8'), 'src/generated/openapi.ts is stale');
    assert.ok(shapes === fs.readFileSync(SHAPES_FILE, 'utf8'), 'src/generated/shapes.ts is stale');
  });

  test('every operation of the OpenAPI document has a client method', () => {
    const mine = new Set(registeredOperations());
    const missing: string[] = [];
    for (const [p, item] of Object.entries(OPENAPI.paths)) {
      // /api/v3 is go~mus's entry API for existing scanner hardware, not a partner API; under
      // /api/v4/payments/ are what payment providers and the demo payment page call.
      if (!p.startsWith('/api/v4/') || p.startsWith('/api/v4/payments/')) continue;
      for (const method of Object.keys(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const canonical = Object.entries(ALIASES).reduce((acc, [from, to]) => (acc.startsWith(from) ? to + acc.slice(from.length) : acc), p);
        if (!mine.has(`${method.toUpperCase()} ${canonical}`)) missing.push(`${method.toUpperCase()} ${p}`);
      }
    }
    assert.deepEqual(missing, [], 'operations without a client method');
  });

  test('operations the client implements ahead of the document are only the announced requests and documents routes', (t) => {
    const documented = new Set(Object.entries(OPENAPI.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)));
    const ahead = registeredOperations().filter((op) => !documented.has(op));
    for (const op of ahead) assert.match(op, /^\w+ \/api\/v4\/(requests|documents)/, `${op} is not in openapi/openapi.json`);
    if (ahead.length) t.diagnostic(`implemented against docs/api-contract.md §9–10, not yet in openapi/openapi.json: ${ahead.join(', ')}`);
  });
});
