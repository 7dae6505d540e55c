// bin/bundle.js: the esbuild bundle that bin/atrium.js runs instead of loading the TypeScript
// sources through tsx. Built on a small package of its own in a temp dir, so these tests neither
// depend on nor disturb the real dist/.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { buildBundle, freshBundle } from '../../bin/bundle.js';
import { runCli } from './cli.ts';

const run = promisify(execFile);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bundle-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

write(
  'src/cli/index.ts',
  `import { where } from '../db/where.ts';
const lazy: string = (await import('../lazy.ts')).lazy;
process.stdout.write(JSON.stringify({ where: where(), lazy }));
`,
);
// Finds a file relative to itself, as src/db/migrate.ts finds the migrations folder.
write(
  'src/db/where.ts',
  `import path from 'node:path';
import { fileURLToPath } from 'node:url';
export const where = (): string => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
`,
);
write('src/lazy.ts', `export const lazy = 'one';\n`);

const runEntry = async (entry: string) => JSON.parse((await run(process.execPath, [entry])).stdout) as { where: string; lazy: string };

describe('bin/bundle.js', () => {
  let first = '';

  test('builds a runnable bundle; a file found relative to a source file is still found there', async () => {
    assert.equal(freshBundle(root), undefined, 'nothing built yet');
    first = await buildBundle(root);
    assert.equal(path.dirname(first), path.join(root, 'dist'));
    assert.equal(freshBundle(root), first);
    assert.deepEqual(await runEntry(first), { where: path.join(root, 'migrations'), lazy: 'one' });
    // The dynamic import became a chunk of its own.
    assert.ok(fs.readdirSync(path.join(root, 'dist')).some((f) => f.startsWith('chunk-') && f.endsWith('.mjs')));
  });

  test('a changed source file makes the bundle stale; the rebuild runs the new code, the old files stay', async () => {
    write('src/lazy.ts', `export const lazy = 'two, changed';\n`);
    assert.equal(freshBundle(root), undefined);
    const second = await buildBundle(root);
    assert.notEqual(second, first);
    assert.equal(freshBundle(root), second);
    assert.deepEqual(await runEntry(second), { where: path.join(root, 'migrations'), lazy: 'two, changed' });
    // A process started from the first build can still load its chunks.
    assert.deepEqual(await runEntry(first), { where: path.join(root, 'migrations'), lazy: 'one' });
  });

  test('a touched file (same content, new mtime) makes it stale too; the rebuild gives the same files', async () => {
    const entry = freshBundle(root)!;
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, 'src/db/where.ts'), later, later);
    assert.equal(freshBundle(root), undefined);
    assert.equal(await buildBundle(root), entry);
    assert.equal(freshBundle(root), entry);
  });

  test('a deleted input makes it stale', async () => {
    fs.rmSync(path.join(root, 'src/lazy.ts'));
    assert.equal(freshBundle(root), undefined);
    await assert.rejects(buildBundle(root));
    write('src/lazy.ts', `export const lazy = 'three';\n`);
  });
});

describe('bin/atrium.js', () => {
  test('the bundle and the tsx fallback (ATRIUM_TSX=1) run the same command line', async () => {
    const bundled = await runCli(['--help'], {});
    const tsx = await runCli(['--help'], { ATRIUM_TSX: '1' });
    assert.equal(bundled.code, 0, bundled.stderr);
    assert.equal(tsx.code, 0, tsx.stderr);
    assert.match(bundled.stdout, /Usage: atrium/);
    assert.equal(bundled.stdout, tsx.stdout);
    assert.equal(bundled.stderr, '');
  });
});
