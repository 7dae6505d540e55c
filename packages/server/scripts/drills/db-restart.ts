// Drill (b): the database goes away under order load and comes back. While it is gone the server
// must answer 503 (Retry-After, spec shape), never another 5xx and never crash; once it is back,
// orders succeed again, and every order is stored exactly once with a matching capacity ledger.
// `stopDb`/`startDb` are the embedded PostgreSQL the drill started itself, or (only when
// ATRIUM_DRILL_RESTART_SYSTEM_PG=1, i.e. in CI after the suites) the machine's PostgreSQL 15.
import { Checks, call, seedCatalogue, sleep, startServer, type DrillDb } from './lib.ts';
import { retryUnsettled, startLoad, verifyOrders } from './orders.ts';

export interface DbControl {
  label: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function dbRestartDrill(db: DrillDb, control: DbControl): Promise<Checks> {
  const checks = new Checks(`db-restart (${control.label})`);
  console.log(`drill: restart ${control.label} under order load`);
  const cat = await seedCatalogue(db.database, { days: 3, capacity: 6 });
  const server = await startServer(db.url);
  const target = { base: server.base };
  let phase: 'up' | 'down' | 'back' = 'up';
  const byPhase: Record<string, Record<string, number>> = { up: {}, down: {}, back: {} };
  const bad503: string[] = [];
  const load = startLoad(target, cat, {
    prefix: `dbr-${control.label.replace(/\W+/g, '')}`,
    workers: 4,
    max: 500,
    onAnswer: (a) => {
      byPhase[phase]![a.status] = (byPhase[phase]![a.status] ?? 0) + 1;
      if (a.status === 503 && (a.body?.code !== 'SERVICE_UNAVAILABLE' || typeof a.body?.request_id !== 'string')) bad503.push(JSON.stringify(a.body));
    },
  });
  await sleep(1500);
  // From the moment the stop begins, answers belong to the outage.
  phase = 'down';
  await control.stop();
  await sleep(3000);
  const health = await call(target.base, 'GET', '/api/v4/orders?per_page=1', cat.token);
  checks.check('a read while the database is gone is a 503', health.status === 503, `${health.status} ${health.body?.code ?? ''}`);
  await control.start();
  phase = 'back';
  const backAt = Date.now();
  await sleep(4000);
  await load.stop();
  const alive = server.proc.exitCode === null && server.proc.signalCode === null;
  checks.check('the server process survived the outage', alive, alive ? `pid ${server.proc.pid}` : server.output().slice(-500));
  console.log(`  answers by phase: ${JSON.stringify(byPhase)} (${Date.now() - backAt} ms after the restart)`);

  const down = byPhase.down!;
  const other5xx = (s: Record<string, number>) => Object.keys(s).filter((k) => /^5/.test(k) && k !== '503');
  // Orders already committing when the stop begins may still answer 201 (PostgreSQL lets running
  // commits finish while it shuts down); those are checked like every other 201 below (stored
  // exactly once). What must not happen is any 5xx but 503.
  checks.check('while the database is gone: 503s, no other 5xx', (down['503'] ?? 0) > 0 && other5xx(down).length === 0, JSON.stringify(down));
  checks.check('503 answers are in the spec shape with SERVICE_UNAVAILABLE', bad503.length === 0, bad503[0] ?? '');
  const back = byPhase.back!;
  checks.check('after it is back: orders succeed and no 5xx but 503', (back['201'] ?? 0) + (back['422'] ?? 0) > 0 && other5xx(back).length === 0, JSON.stringify(back));
  checks.check('before the outage: no 5xx', Object.keys(byPhase.up!).every((k) => !/^5/.test(k)), JSON.stringify(byPhase.up));
  const retried = await retryUnsettled(target, cat, load);
  console.log(`  ${retried} retries of orders answered 503 or cut off`);
  await verifyOrders(checks, db.database, cat, load);
  await server.kill('SIGTERM');
  return checks;
}
