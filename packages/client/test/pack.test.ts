// The package a partner installs: `npm pack` (which builds dist/ through `prepack`), installed into
// an empty project outside this workspace, imported from plain Node.js as an ES module (.mjs) and
// with CommonJS require (.cjs), and type-checked from a consumer's TypeScript file, against a
// running server. Nothing here resolves to the workspace sources: the temp project only sees the
// tarball.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { testApp, type TestApp } from '../../server/test/helpers/app.ts';

const run = promisify(execFile);
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.resolve(pkgDir, '../../node_modules/typescript/bin/tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The temp project must not inherit the workspace's source condition (test/run.ts sets it).
const cleanEnv = { ...process.env, NODE_OPTIONS: '' };

describe('npm pack of @atrium/client', () => {
  let t: TestApp;
  let base: string;
  let token: string;
  let project: string;

  before(async () => {
    t = await testApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    token = await t.token({ class: 'reseller' });
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-client-pack-'));
    const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', project], { cwd: pkgDir, env: cleanEnv, maxBuffer: 1 << 24 });
    const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.cjs') && files.includes('dist/index.d.ts'), files.join(', '));
    assert.ok(files.includes('LICENSE'), 'the licence travels with the package');
    assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'only the build is published');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'partner-app', version: '1.0.0', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--offline', path.join(project, packed[0]!.filename)], { cwd: project, env: cleanEnv });
  });

  after(async () => {
    await t?.close();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  const env = () => ({ ...cleanEnv, ATRIUM_URL: base, ATRIUM_TOKEN: token });

  test('works from a plain .mjs file (import)', async () => {
    fs.writeFileSync(
      path.join(project, 'try.mjs'),
      `import { AtriumClient, NotFoundError } from '@atrium/client';
const atrium = new AtriumClient({ baseUrl: process.env.ATRIUM_URL, token: process.env.ATRIUM_TOKEN });
const me = await atrium.whoami();
let notFound = false;
try { await atrium.orders.get(999999999); } catch (e) { notFound = e instanceof NotFoundError; }
console.log(JSON.stringify({ access: me.access, notFound }));\n`,
    );
    const { stdout, stderr } = await run(process.execPath, ['try.mjs'], { cwd: project, env: env() });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').pop()!), { access: 'reseller', notFound: true });
    assert.doesNotMatch(stderr, /call_failed/, 'an expected 404 is not logged as an error');
  });

  test('works from a plain .cjs file (require)', async () => {
    fs.writeFileSync(
      path.join(project, 'try.cjs'),
      `const { AtriumClient } = require('@atrium/client');
new AtriumClient({ baseUrl: process.env.ATRIUM_URL, token: process.env.ATRIUM_TOKEN })
  .whoami().then((me) => console.log(JSON.stringify(me)), (e) => { console.error(e); process.exit(1); });\n`,
    );
    const { stdout } = await run(process.execPath, ['try.cjs'], { cwd: project, env: env() });
    assert.equal(JSON.parse(stdout.trim()).access, 'reseller');
  });

  test('its declarations type-check a consumer under NodeNext resolution', async () => {
    fs.writeFileSync(
      path.join(project, 'app.ts'),
      `import { AtriumClient, type Logger } from '@atrium/client';
const logger: Logger = { info() {}, warn() {}, error() {} };
const atrium = new AtriumClient({ baseUrl: 'http://127.0.0.1', logger });
export const who: Promise<{ access: string }> = atrium.whoami();
// @ts-expect-error: an unknown option is a type error, so the types are really loaded
new AtriumClient({ baseUrl: 'http://127.0.0.1', notAnOption: true });\n`,
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] }, files: ['app.ts'] }),
    );
    await run(process.execPath, [tsc, '-p', project], { cwd: project, env: cleanEnv });
  });
});
