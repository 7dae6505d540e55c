// Webhook delivery throughput: N events for one subscribed endpoint, delivered by the
// real worker (outbox dispatcher, job queue, signing, SSRF check) to a local HTTP receiver on
// 127.0.0.1 that answers 204 at once. Reports deliveries per second from the first event's
// commit to the last 2xx.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhooks.ts
//   BENCH_EVENTS=2000 (default 1000)
// Writes bench/results/webhooks.json. Each delivery is a claim, a signed POST and the outcome
// (docs/adr/0023), as one job of the queue.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../packages/server/src/config.ts';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { recordEvent } from '../packages/server/src/domain/events/record.ts';
import { last4, newSecret, sealSecret } from '../packages/server/src/domain/webhooks/secrets.ts';
import { startWorker } from '../packages/server/src/jobs/worker.ts';
import { webhookEndpoints } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';

const N = Number(process.env.BENCH_EVENTS ?? 1000);
const db = await benchDatabase();
const orm = db.database.db;
let got = 0;
let done!: () => void;
const all = new Promise<void>((r) => (done = r));
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(204).end();
    if (++got === N) done();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const config = loadConfig({ ...process.env, ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1', ATRIUM_DATA_DIR: '/nonexistent' });
const { accountId } = await createToken({ db: orm, clock: systemClock }, { class: 'reseller', name: 'bench-webhooks' });
const secret = newSecret();
const now = new Date();
await orm.insert(webhookEndpoints).values({ accountId, url, events: ['closure.created'], secretEnc: sealSecret(secret, undefined), secretLast4: last4(secret), createdAt: now, updatedAt: now });

const worker = await startWorker({ database: db.database, config, pollIntervalMs: 200, cron: false });
const started = Date.now();
for (let i = 0; i < N; i += 100) {
  await orm.transaction(async (tx) => {
    for (let j = i; j < Math.min(N, i + 100); j++) {
      await recordEvent({ db: tx, clock: systemClock }, 'closure.created', { accountId, museumIds: [], data: { closure: { id: j } } });
    }
  });
}
const timeout = setTimeout(() => done(), 300_000);
await all;
clearTimeout(timeout);
const seconds = (Date.now() - started) / 1000;
const ok = (await orm.execute<{ n: number }>(sql`select count(*)::int n from webhook_deliveries where status = 'succeeded'`)).rows[0]!.n;
const rate = Math.round(got / seconds);
const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`webhooks: ${N} events, ${got} received, ${ok} recorded succeeded in ${seconds.toFixed(1)} s: ${rate} deliveries/s (${db.where}, load average ${load})`);
const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
fs.mkdirSync(results, { recursive: true });
fs.writeFileSync(path.join(results, 'webhooks.json'), JSON.stringify({ at: new Date().toISOString(), where: db.where, events: N, received: got, succeeded: ok, seconds, deliveriesPerSecond: rate, loadAverage: load }, null, 2) + '\n');
await worker.stop();
server.close();
await db.dispose();
