// The visitor shop against the JSON API for the same data: the shop's home page against the five
// public lists it shows (museums, exhibitions, tickets, events, tours: a client that builds the
// same page fetches all five, so the API side is the rate of whole sets, 1 / Σ 1/rate, and its
// p99 the largest of the five), an offer's month calendar against /tickets/calendar with and
// without depth=all (the page shows per day available, few left, sold out or closed: the first
// says which days can be booked, the second how many places are left; each row also gives the
// ratio to the first alone, the pairing before), and a day's
// slot page against /tickets/:id/capacity (goal: shop/API ≥ 0.5, shop p99 ≤ 100 ms); then whole checkout
// flows per second (a visitor's first page, two tickets into the cart, details, the pending
// order, the demo payment and the confirmation page), from BENCH_FLOWS_CONNECTIONS visitors.
// The shop side is a returning visitor (its cookie sent, as a browser does after the first page);
// first visits (no cookie: each answered with a new one) are measured too and printed beside it.
// Beside each rate: CPU per request (the server and its PostgreSQL backends, bench/lib/cpu.ts),
// which moves far less than req/s when other work shares the cores.
//   npx tsx bench/shop.ts        BENCH_SECONDS (4), BENCH_CONNECTIONS (20), BENCH_FLOWS_CONNECTIONS (10), BENCH_ROUNDS (3),
//                                BENCH_ONLY=<substring of a row's name> (e.g. `slot`, `flows`)
import { benchDatabase } from './lib/db.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { cpuPerRequest, processCpu, type CpuPerRequest } from './lib/cpu.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const FLOW_CONNECTIONS = Number(process.env.BENCH_FLOWS_CONNECTIONS ?? 10);
const ONLY = process.env.BENCH_ONLY ?? '';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const db = await benchDatabase();
const cat = await slotCatalogue(db.database.db, ['Admission', 'Reduced']);
const server = await startAtrium(db.url, { ATRIUM_DEMO: 'true', ATRIUM_SHOP_HOLDS_PER_VISITOR: '1000000', ATRIUM_SHOP_HOLDS_PER_ADDRESS: '1000000' });
const id = cat.ticketIds[0]!;
const day = cat.slots[0]!.slice(0, 10);
const month = day.slice(0, 7);
const pairs: Array<[string, string, string[]]> = [
  ['home', '/shop', ['museums', 'exhibitions', 'tickets', 'events', 'tours'].map((l) => `/api/v4/${l}?per_page=25`)],
  ['offer calendar', `/shop/tickets/${id}?month=${month}`, ['', '&depth=all'].map((d) => `/api/v4/tickets/calendar?ticket_ids[]=${id}&start_at=${month}-01&end_at=${lastOf(month)}${d}`)],
  ['slot page', `/shop/tickets/${id}?date=${day}`, [`/api/v4/tickets/${id}/capacity?date=${day}`]],
];

/** A measured load of one URL (after a second of warm-up) with its CPU per request. */
async function measured(url: string, headers: Record<string, string> = {}): Promise<{ r: LoadResult; cpu: CpuPerRequest }> {
  await load({ url: server.base + url, connections: CONNECTIONS, seconds: 1, headers });
  let r!: LoadResult;
  const cpu = await cpuPerRequest(db.database.db, server.pid, async () => (r = await load({ url: server.base + url, connections: CONNECTIONS, seconds: SECONDS, headers })));
  return { r, cpu };
}

/**
 * The visitor cookie a browser has after its first shop page and sends with every later one: the
 * shop side is measured as that returning visitor, and once more without it (each request a first
 * visit, answered with a new cookie), reported beside it.
 */
async function visitorCookie(): Promise<Record<string, string>> {
  const r = await fetch(`${server.base}/shop`);
  await r.text();
  const c = r.headers.getSetCookie().find((x) => x.startsWith('atrium_shop='));
  if (!c) throw new Error('the shop set no visitor cookie');
  return { cookie: c.split(';')[0]! };
}

/** The API side of a pair: whole sets of its reads per second, the worst p99 among them, CPU per set. */
async function apiSide(urls: string[]) {
  let seconds = 0;
  let p99 = 0;
  let bad = 0;
  let cpu = 0;
  const each: number[] = [];
  for (const u of urls) {
    const { r, cpu: c } = await measured(u);
    each.push(r.rps);
    seconds += 1 / r.rps;
    p99 = Math.max(p99, r.p99);
    bad += r.non2xx + r.errors;
    cpu += c.serverMs + c.pgMs;
  }
  return { rps: 1 / seconds, p99, bad, cpu, each };
}

function lastOf(ym: string): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * Waits (at most 30 s) until the server is idle: after start it compiles the API's route schemas
 * in the background (src/http/api/lazy-schemas.ts), which otherwise took CPU from the first pair's
 * shop side only.
 */
async function settled(pid: number) {
  const used = () => {
    const c = processCpu(pid);
    return c ? c.userMs + c.systemMs : 0;
  };
  let last = used();
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = used();
    if (now - last <= 20) return;
    last = now;
  }
}

const rows: string[] = [];
try {
  await settled(server.pid);
  const returning = await visitorCookie();
  for (const [name, shop, api] of pairs) {
    if (!name.includes(ONLY)) continue;
    // Shop and API sides alternate, ROUNDS times: this machine's speed drifts by a third over
    // tens of seconds, and one shop side then one API side measured two different machines.
    // The row shows the round with the median ratio, and every round's ratio.
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const { r: s, cpu } = await measured(shop, returning);
      const a = await apiSide(api);
      rounds.push({ s, cpu, a, ratio: s.rps / a.rps });
    }
    const { r: first } = await measured(shop);
    const { s, cpu, a, ratio } = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)]!;
    const bad = rounds.reduce((n, r) => n + r.s.non2xx + r.s.errors + r.a.bad, first.non2xx + first.errors);
    const before = name === 'offer calendar' ? `; ratio to the first alone ${(s.rps / a.each[0]!).toFixed(2)}` : '';
    const sets = api.length > 1 ? ` (sets of ${api.length} reads: ${a.each.map(Math.round).join(' + ')} req/s${before})` : '';
    const shopCpu = cpu.serverMs + cpu.pgMs;
    rows.push(
      `${name.padEnd(16)} shop ${Math.round(s.rps)} req/s p99 ${s.p99.toFixed(1)} ms CPU ${shopCpu.toFixed(2)} ms (first visits: ${Math.round(first.rps)} req/s) | API ${Math.round(a.rps)} req/s${sets} p99 ${a.p99.toFixed(1)} ms CPU ${a.cpu.toFixed(2)} ms | ratio ${ratio.toFixed(2)} (rounds ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')}), by CPU ${(a.cpu / shopCpu).toFixed(2)} (goal ≥ 0.5, p99 ≤ 100 ms)${bad ? `  ${bad} failed` : ''}`,
    );
  }
  if ('checkout flows'.includes(ONLY)) rows.push(await flows(server.base));
} finally {
  await server.stop();
  await db.dispose();
}
process.stdout.write(`\nShop vs JSON API — ${SECONDS} s per side, ${CONNECTIONS} connections\n${rows.join('\n')}\n`);

/** One visitor's whole purchase, cookies kept by hand, redirects followed as a browser would. */
async function flow(base: string, n: number): Promise<boolean> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (r: Response) => {
    for (const c of r.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const [k, v] = kv!.split('=');
      jar.set(k!, v!);
    }
  };
  const get = async (p: string) => {
    const r = await fetch(base + p, { headers: { cookie: cookie() }, redirect: 'manual' });
    keep(r);
    await r.text();
    return r;
  };
  const post = async (p: string, form: Record<string, string>) => {
    const r = await fetch(base + p, { method: 'POST', redirect: 'manual', headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: jar.get('atrium_shop') ?? '', ...form }) });
    keep(r);
    await r.text();
    return r;
  };
  await get('/shop');
  const slot = cat.slots[n % cat.slots.length]!;
  if ((await post('/shop/cart/tickets', { ticket: String(id), slot, [`q_${id}`]: '1', [`q_${cat.ticketIds[1]}`]: '1' })).status !== 303) return false;
  const placed = await post('/shop/checkout', { name: 'Bench', surname: `Visitor ${n}`, email: `v${n}@example.org`, consent: 'yes' });
  const order = placed.headers.get('location');
  if (placed.status !== 303 || !order) return false;
  const pay = await post(`${order}/pay`, { provider: 'demo' });
  const demo = pay.headers.get('location');
  if (!demo) return false;
  // The demo provider names the configured address; the bench server listens on a free port.
  const paid = await fetch(base + new URL(demo).pathname, { method: 'POST', body: 'outcome=paid', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  await paid.text();
  await get(`${order}/return`);
  return (await get(order)).status === 200;
}

async function flows(base: string): Promise<string> {
  const end = Date.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: FLOW_CONNECTIONS }, async () => {
      while (Date.now() < end) (await flow(base, n++).catch(() => false)) ? done++ : failed++;
    }),
  );
  return `checkout flows   ${(done / SECONDS).toFixed(1)} paid orders/s (${FLOW_CONNECTIONS} visitors at once, 8 requests each)${failed ? `  ${failed} failed` : ''}`;
}
