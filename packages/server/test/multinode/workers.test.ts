// `atrium serve --workers 2`: the primary migrates once and forks two workers sharing one port;
// a crashed worker is replaced; SIGTERM drains the workers and the primary exits 0.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import { createToken } from '../../src/domain/accounts/createToken.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { freshDatabase } from '../helpers/db.ts';
import * as f from '../helpers/factories.ts';
import { bearer, startNode, type Node } from './nodes.ts';

const db = await freshDatabase();
let node: Node | undefined;
after(async () => {
  await node?.stop();
  await db.drop();
});

/** Worker pids of a primary (its children running atrium; tsx's esbuild service is one too). */
function workers(pid: number): number[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((c) => {
    try {
      return fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('atrium.js');
    } catch {
      return false;
    }
  });
}

async function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('serve --workers 2: serves from two processes, replaces a crashed worker, SIGTERM exits 0', async () => {
  const museumId = (await f.museum(db.db)).id;
  await f.ticket(db.db, { museumId, title: { de: 'Eintritt', en: 'Admission' } });
  const { token } = await createToken({ db: db.db, clock: systemClock }, { class: 'reseller', name: 'partner' });

  node = await startNode({ DATABASE_URL: db.url }, ['--workers', '2']);
  assert.match(node.output(), /2 workers, external PostgreSQL/);
  const pids = workers(node.proc.pid!);
  assert.equal(pids.length, 2, `worker processes: ${pids.join(', ')}`);
  // The primary was started without it; its workers serve with the young-generation flag.
  for (const pid of pids) assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /--max-semi-space-size=64\0/);

  // Round-robin over the two workers: two reads of the same list are two cache misses (one per
  // process), the third is a hit.
  const caches: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await node.get('/api/v4/tickets?locale=en', bearer(token));
    assert.equal(r.status, 200);
    assert.equal(r.body.tickets[0].title, 'Admission');
    caches.push(r.headers.get('x-atrium-cache')!);
  }
  assert.deepEqual(caches.slice(0, 2), ['miss', 'miss']);
  assert.deepEqual(caches.slice(2), ['hit', 'hit']);

  // A crash: the primary forks a replacement and keeps serving meanwhile.
  process.kill(pids[0]!, 'SIGKILL');
  const replaced = await until('a replacement worker', () => {
    const now = workers(node!.proc.pid!);
    return now.length === 2 && !now.includes(pids[0]!) ? now : undefined;
  });
  assert.ok(replaced.includes(pids[1]!));
  for (let i = 0; i < 6; i++) assert.equal((await node.get('/api/v4/tickets')).status, 200);
  assert.match(node.output(), /exited \(SIGKILL\); starting a replacement/);

  const code = await node.stop();
  assert.equal(code, 0, node.output());
  for (const pid of replaced) assert.throws(() => process.kill(pid, 0), 'worker still running after the primary exited');
});
