// The layer rules (.dependency-cruiser.cjs, docs/adr/0041-layer-rules.md) bite: the real config,
// run as `npm run lint:layers` runs it, over a small fixture tree laid out like src/ with one
// planted back-arrow per rule. Every planted import is reported under its rule, and the imports
// that follow the layers (app → http → domain → db, jobs → domain, a type-only cycle) are not.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = path.join(serverRoot, '.dependency-cruiser.cjs');
const depcruise = path.resolve(serverRoot, '../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-layers-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

// Stand-ins for the SQL driver packages, so they resolve as they do in the repository.
write('node_modules/drizzle-orm/package.json', '{"name":"drizzle-orm","main":"index.js"}');
write('node_modules/drizzle-orm/index.js', 'export const sql = 1;\n');
write('node_modules/pg/package.json', '{"name":"pg","main":"index.js"}');
write('node_modules/pg/index.js', 'export default {};\n');

// Allowed: each arrow points down.
write('src/app.ts', "import { api } from './http/api/routes.ts';\nexport const app = api;\n");
write('src/http/api/routes.ts', "import { verb } from '../../domain/orders/verb.ts';\nimport { status } from '../status.ts';\nexport const api = [verb, status];\n");
write('src/http/status.ts', 'export const status = 1;\n');
write('src/domain/orders/verb.ts', "import { rows } from '../../db/repositories/orders.ts';\nexport const verb = rows;\n");
write('src/db/repositories/orders.ts', "import { sql } from 'drizzle-orm';\nexport const rows = sql;\n");
write('src/jobs/task.ts', "import { verb } from '../domain/orders/verb.ts';\nexport const task = verb;\n");
// A cycle through a type-only import is erased by the compiler: allowed.
write('src/domain/orders/a.ts', "import type { B } from './b.ts';\nexport type A = { b?: B };\nexport const a = 1;\n");
write('src/domain/orders/b.ts', "import { a } from './a.ts';\nexport type B = number;\nexport const b = a;\n");

// Planted back-arrows, one per rule.
const planted: Array<[rule: string, from: string, to: string, text: string]> = [
  ['domain-not-up', 'src/domain/orders/upward.ts', 'src/http/api/routes.ts', "import { api } from '../../http/api/routes.ts';\nexport const x = api;\n"],
  ['domain-no-sql-driver', 'src/domain/orders/sql.ts', 'node_modules/pg/index.js', "import pg from 'pg';\nexport const x = pg;\n"],
  ['transports-only-from-app', 'src/jobs/http.ts', 'src/http/status.ts', "import { status } from '../http/status.ts';\nexport const x = status;\n"],
  ['transports-apart', 'src/http/console/page.ts', 'src/http/api/routes.ts', "import { api } from '../api/routes.ts';\nexport const x = api;\n"],
  ['db-is-the-bottom', 'src/db/up.ts', 'src/domain/orders/verb.ts', "import { verb } from '../domain/orders/verb.ts';\nexport const x = verb;\n"],
  ['cache-is-infrastructure', 'src/cache/tokens.ts', 'src/domain/orders/verb.ts', "import { verb } from '../domain/orders/verb.ts';\nexport const x = verb;\n"],
  ['cluster-not-cli', 'src/cluster/primary.ts', 'src/cli/runtime.ts', "import { usage } from '../cli/runtime.ts';\nexport const x = usage;\n"],
  ['no-circular', 'src/domain/cycle/one.ts', 'src/domain/cycle/two.ts', "import { two } from './two.ts';\nexport const one = () => two;\n"],
];
for (const [, from, , text] of planted) write(from, text);
write('src/cli/runtime.ts', 'export const usage = 1;\n');
write('src/domain/cycle/two.ts', "import { one } from './one.ts';\nexport const two = () => one;\n");

test('each planted back-arrow is reported under its rule, and nothing else is; the lint fails', async () => {
  // Exactly as `npm run lint:layers` runs it (its default report, one `error rule: from → to` line
  // per violation; a cycle's path continues on the next lines).
  const out = await run(process.execPath, [depcruise, 'src', '--config', config], { cwd: root }).then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (e: { stdout?: string; code?: number }) => ({ stdout: e.stdout ?? '', code: e.code ?? -1 }),
  );
  const lines = out.stdout.split('\n');
  const found = lines.flatMap((line, i) => {
    const m = /^\s*error ([\w-]+): (\S+) → ?(\S*)$/.exec(line);
    if (!m) return [];
    const to = m[3] || lines[i + 1]!.trim().replace(/ →$/, '');
    return [`${m[1]}: ${m[2]} → ${to}`];
  });
  // A domain file importing a transport breaks two rules at once.
  const alsoTransport = 'transports-only-from-app: src/domain/orders/upward.ts → src/http/api/routes.ts';
  const expected = [...planted.map(([rule, from, to]) => `${rule}: ${from} → ${to}`), alsoTransport].sort();
  assert.deepEqual(found.sort(), expected, out.stdout);
  assert.equal(out.code, expected.length, 'the lint command fails, one count per violation');
});
