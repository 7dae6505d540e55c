// Job drills: the background work (PDF renders, visitor mails, webhook deliveries) survives what
// stopped it before, without restarting the server, and a killed server's work is finished within
// a minute of its restart (src/jobs/supervisor.ts, liveness.ts, jobErrors.ts).
// (a) the embedded PostgreSQL is killed under order load and started again;
// (b) PostgreSQL's disk fills while PDFs render (a small tmpfs holds its data; a filler file takes
//     the rest), then space is freed;
// (c) the server is SIGKILLed while a webhook POST and an SMTP DATA are held open and renders run.
// After each: every document rendered, every mail sent exactly once, every delivery received.
import fs from 'node:fs';
import path from 'node:path';
import { call, seedCatalogue, sleep, startServer, Checks, type DrillDb } from './lib.ts';
import { hookReceiver, settle, smtpSink, subscribe, verifyEffects } from './jobs-lib.ts';
import { retryUnsettled, startLoad } from './orders.ts';
import type { DbControl } from './db-restart.ts';

const ENV = {
  // An invoice issuer, so invoices render (without one they are refused, which is not this drill's matter).
  ATRIUM_ISSUER_NAME: 'Drill Museum gGmbH', ATRIUM_ISSUER_STREET: 'Teststr. 1', ATRIUM_ISSUER_ZIP: '10115', ATRIUM_ISSUER_CITY: 'Berlin', ATRIUM_ISSUER_VAT_ID: 'DE999999999',
  ATRIUM_WEBHOOKS_ALLOW_PRIVATE: '1', ATRIUM_WEBHOOKS_RETRY_SCHEDULE: '1,1,2,2,5,5,5,5,5,5' };

/** The server's log lines about jobs (worker, runner, dispatch), the last 60, shortened. */
function jobLines(out: string): string {
  return out.split('\n').filter((l) => /"worker"|job runner|dispatch|heartbeat|dead job/.test(l)).slice(-60).map((l) => l.slice(0, 400)).join('\n');
}

async function readyz(base: string): Promise<number | 'network'> {
  try {
    const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'network';
  }
}

/** (a) and (b): the database goes away, or its disk fills, under load; the same server recovers. */
export async function outageDrill(db: DrillDb, label: string, outage: { start(): Promise<void>; end(): Promise<void>; /** The database is unreachable meanwhile (not only full). */ unreachable: boolean }): Promise<Checks> {
  const checks = new Checks(`jobs (${label})`);
  console.log(`drill: ${label} under order load; background work must finish without a server restart`);
  const hooks = await hookReceiver(() => 20);
  const mail = await smtpSink(() => 20);
  const cat = await seedCatalogue(db.database, { days: 3, capacity: 40 });
  const server = await startServer(db.url, { ...ENV, SMTP_URL: mail.url, LOG_LEVEL: process.env.ATRIUM_DRILL_LOG_LEVEL ?? 'warn' });
  try {
    checks.check('webhook registered', await subscribe(server.base, cat.token, hooks.url));
    const load = startLoad(server, cat, { prefix: `jobs-${label.replace(/\W+/g, '')}`, workers: 3, max: 120, customerEvery: 3 });
    await sleep(2000);
    const before = { ...load.statuses };
    await outage.start();
    await sleep(5000);
    const during = await readyz(server.base);
    if (outage.unreachable) checks.check('/readyz is not 200 during the outage', during !== 200, String(during));
    const failedWrites = Object.entries(load.statuses).filter(([k]) => k !== '201' && k !== '200').reduce((n, [k, v]) => n + v - (before[k] ?? 0), 0);
    checks.check('the outage made writes fail', failedWrites > 0, `order answers during it: ${JSON.stringify(load.statuses)}`);
    await outage.end();
    await sleep(3000);
    await load.stop();
    await retryUnsettled(server, cat, load, 30_000);
    const s = await settle(db.database, 120_000);
    console.log(`  background work settled: ${s.done} after ${Math.round(s.ms / 1000)} s (${JSON.stringify(s.last)})`);
    checks.check('all background work done without a restart', s.done, JSON.stringify(s.last));
    if (!s.done) console.log(`  job lines of the server log:\n${jobLines(server.output())}`);
    const alive = server.proc.exitCode === null && server.proc.signalCode === null;
    checks.check('the same server process', alive, alive ? `pid ${server.proc.pid}` : server.output().slice(-400));
    checks.check('/readyz is 200 again', (await readyz(server.base)) === 200);
    await verifyEffects(checks, db.database, hooks, mail, label);
  } finally {
    await server.kill('SIGTERM');
    await hooks.close();
    await mail.close();
  }
  return checks;
}

/** (a) */
export const dbKill = (control: DbControl) => ({ start: () => control.stop(), end: () => control.start(), unreachable: true });

/** (b) Fills the filesystem of `dir` with a filler file until it is full; end() removes it. */
export function diskFull(dir: string, control: DbControl) {
  const filler = path.join(dir, 'filler');
  return {
    unreachable: false,
    async start() {
      const block = Buffer.alloc(1024 * 1024, 1);
      const fd = fs.openSync(filler, 'w');
      try {
        for (;;) fs.writeSync(fd, block);
      } catch {
        // ENOSPC: full
      } finally {
        fs.closeSync(fd);
      }
    },
    async end() {
      fs.rmSync(filler, { force: true });
      // A WAL write that hit the full disk makes PostgreSQL stop (PANIC): start it again then.
      await control.start().catch(() => undefined);
    },
  };
}

/** (c) SIGKILL mid-delivery, mid-send and mid-render; the restarted server finishes within a minute. */
export async function killDrill(db: DrillDb): Promise<Checks> {
  const checks = new Checks('jobs (SIGKILL)');
  console.log('drill: SIGKILL atrium serve while a webhook, a mail and renders are in flight');
  let hold = 4000;
  const hooks = await hookReceiver(() => hold);
  const mail = await smtpSink(() => hold);
  const cat = await seedCatalogue(db.database, { days: 3, capacity: 40 });
  let server = await startServer(db.url, { ...ENV, SMTP_URL: mail.url });
  try {
    checks.check('webhook registered', await subscribe(server.base, cat.token, hooks.url));
    const load = startLoad(server, cat, { prefix: 'jobs-kill', workers: 2, max: 30, customerEvery: 2 });
    const t0 = Date.now();
    while ((hooks.inFlight() === 0 || mail.inFlight() === 0) && Date.now() - t0 < 30_000) await sleep(50);
    checks.check('a delivery and a mail in flight at the kill', hooks.inFlight() > 0 && mail.inFlight() > 0, `hooks ${hooks.inFlight()}, mails ${mail.inFlight()}`);
    await server.kill('SIGKILL');
    hold = 20;
    await load.stop();
    server = await startServer(db.url, { ...ENV, SMTP_URL: mail.url });
    const restartedAt = Date.now();
    await retryUnsettled(server, cat, load, 20_000);
    const s = await settle(db.database, 60_000 - (Date.now() - restartedAt));
    console.log(`  background work settled: ${s.done} ${Math.round((Date.now() - restartedAt) / 1000)} s after the restart`);
    checks.check('all background work done within a minute of the restart', s.done, JSON.stringify(s.last));
    if (!s.done) console.log(`  server log (end):\n${server.output().slice(-6000)}`);
    // A message the dead process handed over whole may arrive twice (the receiver cannot tell
    // the server it kept it); the rest must arrive once. Counted here, reported by verifyEffects.
    await verifyEffects(checks, db.database, hooks, mail, 'after SIGKILL');
  } finally {
    await server.kill('SIGTERM');
    await hooks.close();
    await mail.close();
  }
  return checks;
}
