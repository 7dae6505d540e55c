// The single-node set-up: `atrium serve` with the embedded PostgreSQL, CLI commands connecting to
// the running server's database, a second server refused, and a clean stop on SIGTERM.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { lastLine, runCli, spawnCli } from './cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-embedded-'));
// As root the embedded PostgreSQL runs as the `postgres` user, which must reach the directory.
fs.chmodSync(dataDir, 0o755);
const env = { ATRIUM_DATA_DIR: dataDir };
let server: ReturnType<typeof spawnCli> | undefined;
after(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('serve on the embedded PostgreSQL; CLI commands share it; one server per data directory', { timeout: 150_000 }, async () => {
  server = spawnCli(['serve', '--port', '0', '--demo'], env);
  let out = '';
  let err = '';
  server.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => server!.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "ready" in 120 s\n${out}\n${err}`)), 120_000);
    server!.stdout!.on('data', (d) => {
      out += d;
      const m = /ready in \d+ ms on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}\n${out}\n${err}`)));
  });
  assert.match(out, /embedded PostgreSQL/);
  assert.match(out, /loaded the demo catalogue/);
  assert.match(out, /atrium token create/, 'it prints how to create a token');
  const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'atrium.lock'), 'utf8'));
  assert.equal(lock.pid, server.pid);

  // Both run while the server holds the data directory.
  const [created, second] = await Promise.all([
    runCli(['token', 'create', '--class', 'reseller', '--name', 'Embedded partner'], env),
    runCli(['serve', '--port', '0'], env),
  ]);
  assert.equal(created.code, 0, created.stderr);
  const res = await fetch(`${base}/api/v4/whoami`, { headers: { authorization: `Bearer ${lastLine(created.stdout)}` } });
  assert.equal(res.status, 200, 'the token was written to the running server’s database');
  assert.deepEqual(await res.json(), { access: 'reseller', museums: [] });
  assert.equal(second.code, 1);
  assert.match(second.stderr, /is in use by another atrium process \(pid \d+, atrium serve\)/);
  assert.doesNotMatch(second.stderr, /\n\s+at /);

  server.kill('SIGTERM');
  assert.equal(await exited, 0, err);
  assert.equal(fs.existsSync(path.join(dataDir, 'atrium.lock')), false, 'the lock is removed');
});
