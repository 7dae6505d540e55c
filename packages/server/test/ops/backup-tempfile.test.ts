// `atrium backup` writes its archive in a private directory of its own (a new random name, mode
// 0700) with O_EXCL and links it into place: a symbolic link placed beforehand where the temporary
// file used to go, or at the backup's own name, is never followed, so running a backup as root
// cannot be turned into overwriting another file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { backupEmbedded } from '../../src/cli/backup.ts';
import { loadConfig } from '../../src/config.ts';
import { locateDatabase, type Located } from '../../src/db/locate.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-tmp-'));
const config = loadConfig({ ATRIUM_DATA_DIR: path.join(tmp, 'data') });
let located: Located;
before(async () => {
  located = await locateDatabase(config, 'server', () => {});
});
after(async () => {
  await located?.release();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a symbolic link placed where the temporary file goes is not followed', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'nightly.backup');
  const victim = path.join(tmp, 'victim.conf');
  fs.writeFileSync(victim, 'precious\n');
  // The name the temporary file had (the backup's name, the pid, ".partial"): predictable.
  fs.symlinkSync(victim, `${out}.${process.pid}.partial`);
  const r = await backupEmbedded(config, out);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n', 'the link\'s target is untouched');
  const st = fs.lstatSync(out);
  assert.ok(st.isFile() && !st.isSymbolicLink(), 'the backup is a file of its own');
  assert.equal(st.mode & 0o777, 0o600);
  assert.equal(st.size, r.bytes);
  assert.deepEqual(fs.readdirSync(tmp).filter((n) => n.startsWith('.atrium-backup-')), [], 'no private directory left behind');
});

test('a dangling symbolic link at the backup\'s own name is refused, and its target is not created', { timeout: 120_000 }, async () => {
  const out = path.join(tmp, 'second.backup');
  const target = path.join(tmp, 'created-through-the-link');
  fs.symlinkSync(target, out);
  await assert.rejects(backupEmbedded(config, out), /exists already: choose a new file name/);
  assert.equal(fs.existsSync(target), false);
  assert.ok(fs.lstatSync(out).isSymbolicLink(), 'left as it was');
});
