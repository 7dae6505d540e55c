// Drill (a): SIGKILL `atrium serve` while a reseller creates finalized orders, restart it on the
// same database, and check that nothing was lost or counted twice, and that the holds the dead
// process created still count until their expiry and no longer after it (ATRIUM_HOLD_MINUTES=1,
// so the drill waits about a minute for that, on the real clock the server uses).
import { sql } from 'drizzle-orm';
import { Checks, call, seedCatalogue, sleep, startServer, type DrillDb } from './lib.ts';
import { retryUnsettled, startLoad, verifyOrders } from './orders.ts';

const SERVER_ENV = { ATRIUM_HOLD_MINUTES: '1' };

async function placesLeft(base: string, token: string, ticketId: number, slot: string): Promise<number | null> {
  const date = slot.slice(0, 10);
  const a = await call(base, 'GET', `/api/v4/tickets/${ticketId}/capacity?date=${date}`, token);
  if (a.status !== 200) return null;
  const entry = Object.entries(a.body.data as Record<string, number>).find(([k]) => new Date(k).getTime() === new Date(slot).getTime());
  return entry ? entry[1] : 0;
}

export async function crashDrill(db: DrillDb): Promise<Checks> {
  const checks = new Checks('crash');
  console.log('drill: SIGKILL atrium serve under order load, restart on the same database');
  const cat = await seedCatalogue(db.database, { days: 3, capacity: 6 });
  let server = await startServer(db.url, SERVER_ENV);
  const target = { base: server.base };

  // Holds made by the process that is about to die.
  const holds: Array<{ token: string; validUntil: string }> = [];
  for (let i = 0; i < 3; i++) {
    const a = await call(target.base, 'POST', '/api/v4/tickets/reservations', cat.token, { ticket_id: cat.holdTicketId, quantity: 2, start_at: cat.holdSlot });
    if (a.status === 201) holds.push({ token: a.body.reservation.reservation_token, validUntil: a.body.reservation.valid_until });
  }
  checks.check('holds created before the crash', holds.length === 3, `${holds.length} holds of 2 places`);

  const load = startLoad(target, cat, { prefix: 'crash', workers: 4, max: 400 });
  const t0 = Date.now();
  while (Object.values(load.statuses).reduce((a, b) => a + b, 0) < 60 && Date.now() - t0 < 15_000) await sleep(20);
  await server.kill('SIGKILL');
  const killedAt = Date.now();
  console.log(`  killed pid ${server.proc.pid} after ${load.answers.size} orders were sent`);
  await sleep(300);
  server = await startServer(db.url, SERVER_ENV);
  target.base = server.base;
  console.log(`  restarted in ${Date.now() - killedAt} ms`);
  await sleep(1500);
  await load.stop();
  const retried = await retryUnsettled(target, cat, load);
  console.log(`  load: ${JSON.stringify(load.statuses)}; ${retried} retries of unsettled orders`);
  checks.check('no 5xx answer during the load', !Object.keys(load.statuses).some((s) => /^5/.test(s)), JSON.stringify(load.statuses));
  await verifyOrders(checks, db.database, cat, load);

  // Holds: stored with expiry = creation + 1 minute, still counted after the restart, gone after.
  const rows = await db.database.db.execute<{ secs: number }>(
    sql`select extract(epoch from expires_at - created_at)::float as secs from reservations where ticket_id = ${cat.holdTicketId}`,
  );
  checks.check('holds of the dead process expire 60 s after creation', rows.rows.length === 3 && rows.rows.every((r) => Math.abs(r.secs - 60) < 1), JSON.stringify(rows.rows.map((r) => r.secs)));
  const during = await placesLeft(target.base, cat.token, cat.holdTicketId, cat.holdSlot);
  checks.check('holds still count after the restart', during === cat.holdCapacity - 6, `places left ${during} of ${cat.holdCapacity}`);
  const lastExpiry = Math.max(...holds.map((h) => new Date(h.validUntil).getTime()));
  const wait = lastExpiry - Date.now() + 1500;
  console.log(`  waiting ${Math.round(wait / 1000)} s for the holds to expire`);
  if (wait > 0) await sleep(wait);
  const afterExpiry = await placesLeft(target.base, cat.token, cat.holdTicketId, cat.holdSlot);
  checks.check('expired holds no longer count', afterExpiry === cat.holdCapacity, `places left ${afterExpiry} of ${cat.holdCapacity}`);
  const use = await call(target.base, 'POST', '/api/v4/orders', cat.token, {
    finalize: true,
    items: [{ type: 'Ticket', attributes: { id: cat.holdTicketId, quantity: 1, time: cat.holdSlot, reservations: [holds[0]!.token] } }],
  });
  checks.check('an expired hold cannot be used', use.status === 422, `${use.status} ${use.body?.code ?? ''}`);

  await server.kill('SIGTERM');
  return checks;
}
