// `npm run openapi`: writes the OpenAPI document generated from the route schemas to
// openapi/openapi.json (repository root), where test/contract/openapi.test.ts checks it is current.
//
// buildApp needs a migrated database (it reads the instance row), although the document itself
// depends only on the code. The database is, in order of preference: a throw-away database on the
// server named by TEST_DATABASE_URL, the DATABASE_URL server (migrated like `atrium serve` does),
// or an embedded PostgreSQL in a temporary directory. The configuration is the built-in defaults,
// never the caller's environment, so the document does not change with the machine it is made on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { installQueue } from '../src/jobs/queue.ts';

export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../openapi/openapi.json');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const TOP_LEVEL = ['openapi', 'info', 'servers', 'tags', 'security', 'paths', 'components', 'webhooks'];
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

function sortedKeys(obj: Record<string, Json>, order?: string[]): Record<string, Json> {
  const rank = (k: string) => (order && order.includes(k) ? order.indexOf(k) : Number.MAX_SAFE_INTEGER);
  const keys = Object.keys(obj).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, Json> = {};
  for (const k of keys) out[k] = obj[k]!;
  return out;
}

/**
 * The committed form of the document. Paths, methods and components are sorted, so the file does
 * not depend on the order in which route modules register; everything inside an operation keeps
 * the order of its schema (deterministic, and easier to read than an alphabetical sort).
 */
export function renderOpenApi(doc: unknown): string {
  const d = JSON.parse(JSON.stringify(doc)) as Record<string, Json>;
  if (d.paths && typeof d.paths === 'object') {
    const paths = d.paths as Record<string, Record<string, Json>>;
    for (const p of Object.keys(paths)) paths[p] = sortedKeys(paths[p]!, METHODS);
    d.paths = sortedKeys(paths);
  }
  if (d.components && typeof d.components === 'object') {
    const comps = d.components as Record<string, Record<string, Json>>;
    for (const c of Object.keys(comps)) comps[c] = sortedKeys(comps[c]!);
    d.components = sortedKeys(comps);
  }
  return JSON.stringify(sortedKeys(d, TOP_LEVEL), null, 2) + '\n';
}

/** Builds the application on a migrated database, hands it to `fn`, then tears everything down. */
export async function withDocsApp<T>(fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const cleanups: Array<() => Promise<void>> = [];
  try {
    let database: Database;
    const testUrl = process.env.TEST_DATABASE_URL;
    if (testUrl) {
      const name = `atrium_openapi_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: testUrl });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      cleanups.push(async () => {
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      });
      const u = new URL(testUrl);
      u.pathname = `/${name}`;
      database = openDatabase(u.toString(), { max: 2 });
    } else if (process.env.DATABASE_URL) {
      database = openDatabase(process.env.DATABASE_URL, { max: 2 });
    } else {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-openapi-'));
      fs.chmodSync(tmp, 0o755); // as root the embedded server runs as `postgres` and must enter it
      cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
      const server = await startEmbedded({ dir: path.join(tmp, 'pg'), persistent: false });
      cleanups.push(() => server.stop());
      database = openDatabase(server.url, { max: 2 });
    }
    cleanups.push(() => database.close());
    await runMigrations(database.pool, { installQueue });
    const app = await buildApp({ database, config: loadConfig({ ATRIUM_DATA_DIR: os.tmpdir() }), logger: false });
    cleanups.push(() => app.close());
    await app.ready();
    return await fn(app);
  } finally {
    for (const c of cleanups.reverse()) await c();
  }
}

async function main() {
  const text = await withDocsApp(async (app) => renderOpenApi(app.swagger()));
  fs.mkdirSync(path.dirname(OPENAPI_FILE), { recursive: true });
  const before = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  fs.writeFileSync(OPENAPI_FILE, text);
  const paths = Object.keys((JSON.parse(text) as { paths?: object }).paths ?? {}).length;
  process.stdout.write(
    `openapi/openapi.json: ${paths} paths, ${before === text ? 'unchanged' : 'updated'}\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    process.stderr.write(`openapi: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
