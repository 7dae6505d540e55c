// The data directory is private: made 0700 at start, and an existing one open to other users is
// tightened at start, with a log line saying so (docs/operations.md, "Embedded mode security model").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { holdDataDir, locateDatabase } from '../../src/db/locate.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-datadir-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const mode = (p: string) => fs.statSync(p).mode & 0o777;
// An external database: locateDatabase does not start the embedded PostgreSQL, nor connect.
const external = (dataDir: string) => loadConfig({ ATRIUM_DATA_DIR: dataDir, DATABASE_URL: 'postgres://atrium@127.0.0.1:1/atrium' });

test('a new data directory is made 0700, for the embedded and for an external database', async () => {
  const embedded = path.join(tmp, 'new', 'data');
  const release = holdDataDir(loadConfig({ ATRIUM_DATA_DIR: embedded }));
  release();
  assert.equal(mode(embedded), 0o700);
  const served = path.join(tmp, 'served');
  await (await locateDatabase(external(served), 'server', () => {})).release();
  assert.equal(mode(served), 0o700);
});

test('an existing data directory open to others is tightened at start, with a log line; a private one is left alone', async () => {
  const dir = path.join(tmp, 'old');
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o755);
  const lines: string[] = [];
  await (await locateDatabase(external(dir), 'server', (m) => lines.push(m))).release();
  assert.equal(mode(dir), 0o700);
  assert.deepEqual(lines, [`tightened the data directory ${dir} from mode 0755 to 0700: only its owner may read it`]);
  await (await locateDatabase(external(dir), 'server', (m) => lines.push(m))).release();
  assert.equal(lines.length, 1, 'nothing to say the second time');
});

test('the embedded path (restore takes the lock) tightens too', () => {
  const dir = path.join(tmp, 'restore');
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o775);
  holdDataDir(loadConfig({ ATRIUM_DATA_DIR: dir }))();
  assert.equal(mode(dir) & 0o076, 0, `group and others may not read or write: ${mode(dir).toString(8)}`);
});

test('with an external database a data directory that cannot be made is reported, not fatal', async () => {
  const file = path.join(tmp, 'a-file');
  fs.writeFileSync(file, 'x');
  const lines: string[] = [];
  const located = await locateDatabase(external(path.join(file, 'data')), 'server', (m) => lines.push(m));
  await located.release();
  assert.equal(located.embedded, false);
  assert.match(lines.join('\n'), /the data directory could not be prepared/);
});
