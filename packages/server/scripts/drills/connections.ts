// Drill (c): a half-open connection flood. One client (127.0.0.1) opens
// FLOOD idle connections to `atrium serve`, sending nothing, as the probe did with ~20,000;
// meanwhile another client (127.0.0.2) keeps calling the API. The per-address cap must close the
// flood's excess at accept, the other client must be answered quickly throughout, the shedding
// must be logged, and the flooding address must be served again once it lets go.
// Bounded: FLOOD sockets opened in batches, each closed after at most HOLD_MS; loopback only.
import net from 'node:net';
import { Checks, sleep, startServer, type DrillDb } from './lib.ts';

const FLOOD = 3000;
const PER_ADDRESS = 200;
const BATCH = 250;
const HOLD_MS = 8000;

/** One GET over a fresh connection from `from`; status and milliseconds (status 0 = failed). */
function get(port: number, from: string, path: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let got = '';
    s.setTimeout(5000, () => s.destroy());
    s.on('data', (d) => (got += d));
    s.on('error', () => {});
    s.on('close', () => resolve({ status: Number(got.split(' ')[1]) || 0, ms: Date.now() - started }));
    s.write(`GET ${path} HTTP/1.1\r\nHost: drill\r\nConnection: close\r\n\r\n`);
  });
}

export async function connectionsDrill(db: DrillDb): Promise<Checks> {
  const checks = new Checks('connections');
  console.log(`drill: ${FLOOD} half-open connections from one address, the API answering another`);
  const server = await startServer(db.url, { ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), LOG_LEVEL: 'warn' });
  const port = Number(new URL(server.base).port);
  const flood: net.Socket[] = [];
  let closedEarly = 0;
  let opened = 0;
  const others: Array<{ status: number; ms: number }> = [];
  let flooding = true;
  // The other client: one request after another for as long as the flood lasts.
  const other = (async () => {
    while (flooding && others.length < 500) {
      others.push(await get(port, '127.0.0.2', others.length % 2 ? '/healthz' : '/api/v4/version'));
      await sleep(20);
    }
  })();
  try {
    for (let i = 0; i < FLOOD; i += BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(BATCH, FLOOD - i) }, () => new Promise<void>((resolve) => {
          const s = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
          flood.push(s);
          s.on('error', () => {});
          s.on('connect', () => {
            opened += 1;
            resolve();
          });
          s.on('close', () => {
            closedEarly += 1;
            resolve();
          });
          setTimeout(resolve, 2000);
        })),
      );
    }
    // Connections the kernel completed wait in the listen backlog until Node accepts (and sheds)
    // them: give it up to 5 s to work through the backlog.
    const settleBy = Date.now() + 5000;
    while (Date.now() < settleBy && flood.filter((s) => !s.destroyed).length > PER_ADDRESS) await sleep(100);
    const closedByServer = closedEarly;
    const still = flood.filter((s) => !s.destroyed).length;
    checks.check('the flood connected', opened >= FLOOD * 0.95, `${opened} of ${FLOOD} accepted by the kernel`);
    checks.check(`the flooding address holds at most ${PER_ADDRESS} connections`, still <= PER_ADDRESS && closedByServer >= FLOOD - PER_ADDRESS - 10, `${still} open, ${closedByServer} closed by the server`);
    await sleep(Math.max(0, HOLD_MS - 5000));
  } finally {
    flooding = false;
    await other;
    for (const s of flood) s.destroy();
  }
  const ok = others.filter((o) => o.status === 200);
  // While the flood's connections queue in the kernel's listen backlog, a new connection waits
  // behind them for Node to accept: the tail is that queue, the rest must stay quick.
  const sorted = others.map((o) => o.ms).sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const slowest = sorted.at(-1) ?? 0;
  checks.check('another client was answered throughout the flood', others.length >= 20 && ok.length === others.length, `${ok.length} of ${others.length} answered 200`);
  checks.check('and quickly', p90 < 1000 && slowest < 10_000, `90th percentile ${p90} ms, slowest ${slowest} ms`);
  await sleep(300);
  const again = await get(port, '127.0.0.1', '/api/v4/version');
  checks.check('the flooding address is served again once it lets go', again.status === 200, `status ${again.status}`);
  const shedLines = server.output().split('\n').filter((l) => l.includes('connections shed at accept'));
  checks.check('the shedding is logged, rate-limited', shedLines.length >= 1 && shedLines.length <= 3, `${shedLines.length} log lines`);
  await server.kill('SIGTERM');
  return checks;
}
