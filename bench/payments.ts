// Payments benchmark: orders paid per second through the `demo` provider (checkout, then the demo
// page's "pay" button) and through Stripe (checkout against a local stand-in of Stripe's API, then
// its signed `checkout.session.completed` webhook), each as a ratio to plain finalize (pending
// order, then POST /finalize) measured in the same run, before and after the paid runs. The
// `vouchers` flow is the `demo` one with a promo code on the order (10 % off) and 1.00 of it paid
// by a gift card first: its ratio to `demo` is what codes and cards cost a paid order.
//   npx tsx bench/payments.ts            (embedded PostgreSQL in a temp dir)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/payments.ts
//   BENCH_SECONDS (8 per run), BENCH_CONNECTIONS (20 flows at once), BENCH_MAX_ORDERS (20,000 per run)
// Every flow is several requests, so the figure is whole orders per second, with p50/p99 of a
// whole flow. The Stripe stand-in runs in this process, beside the load generator, on 127.0.0.1.
// Writes bench/results/payments.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { startStripeStandin } from '../packages/server/scripts/standins/stripe-standin.ts';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { slotCatalogue } from './lib/catalogue.ts';
import { benchDatabase } from './lib/db.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MAX_ORDERS = Number(process.env.BENCH_MAX_ORDERS ?? 20_000);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const { db: orm } = db.database;
const { ticketIds, slots } = await slotCatalogue(orm);
// A user token: checkout and finalize are the same calls a shop's back end makes.
const { token } = await createToken({ db: orm, clock: systemClock }, { class: 'user', name: 'bench-payments', rights: ['*'] });
const stripe = await startStripeStandin();
const atrium = await startAtrium(db.url, {
  ATRIUM_DEMO: 'true',
  ATRIUM_PAYMENT_PROVIDERS: 'demo,desk,invoice,stripe',
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: stripe.base,
});
const api = `${atrium.base}/api/v4`;
const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function call(method: string, url: string, body: unknown, headers: Record<string, string> = json): Promise<any> {
  const res = await fetch(url, { method, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const pendingOrder = async (): Promise<number> =>
  (await call('POST', `${api}/orders`, { items: [{ type: 'Ticket', attributes: { id: ticketIds[0], quantity: 1, time: pick(slots) } }] })).order.id;
const checkout = async (id: number, provider: string) =>
  (await call('POST', `${api}/orders/${id}/checkout`, { provider, return_url: 'https://shop.example.org/back' })).payment.provider_ref as string;

// A promo code every order may use, and gift cards of 500.00 taken in turn (1.00 per order), so
// concurrent flows rarely debit the same card at once.
await call('POST', `${api}/promo_codes`, { code: 'BENCH10', kind: 'percent', percent: 10 });
const cards: string[] = [];
for (let i = 0; i < 200; i++) cards.push((await call('POST', `${api}/gift_cards`, { amount_cents: 50_000 })).gift_card.code);
let nextCard = 0;

type Flow = () => Promise<void>;
const FLOWS: Record<string, Flow> = {
  finalize: async () => {
    const id = await pendingOrder();
    await call('POST', `${api}/orders/${id}/finalize`, {});
  },
  demo: async () => {
    const ref = await checkout(await pendingOrder(), 'demo');
    await call('POST', `${api}/payments/demo/${ref}`, 'outcome=paid', { 'content-type': 'application/x-www-form-urlencoded' });
  },
  vouchers: async () => {
    const { order } = await call('POST', `${api}/orders`, { codes: ['BENCH10'], items: [{ type: 'Ticket', attributes: { id: ticketIds[0], quantity: 1, time: pick(slots) } }] });
    await call('POST', `${api}/orders/${order.id}/payments/gift_card`, { code: cards[nextCard++ % cards.length], amount_cents: 100 });
    const ref = await checkout(order.id, 'demo');
    await call('POST', `${api}/payments/demo/${ref}`, 'outcome=paid', { 'content-type': 'application/x-www-form-urlencoded' });
  },
  stripe: async () => {
    const ref = await checkout(await pendingOrder(), 'stripe');
    stripe.pay(ref); // the visitor pays on Stripe's page
    const { payload, headers } = stripe.event('checkout.session.completed', ref);
    await call('POST', `${api}/payments/stripe/webhook`, payload, headers);
  },
};

interface Run { name: string; orders: number; errors: number; seconds: number; perSecond: number; p50: number; p99: number; firstError?: string }

/** CONNECTIONS flows at once, each starting its next when the last is done, for SECONDS or MAX_ORDERS. */
async function run(name: string, seconds = SECONDS): Promise<Run> {
  const flow = FLOWS[name.split(' ')[0]!]!;
  const lat: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < end && lat.length + errors < MAX_ORDERS) {
      const s = performance.now();
      try {
        await flow();
        lat.push(performance.now() - s);
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p: number) => Math.round(lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0);
  const r: Run = { name, orders: lat.length, errors, seconds: Number(elapsed.toFixed(2)), perSecond: Math.round(lat.length / elapsed), p50: q(0.5), p99: q(0.99), ...(firstError ? { firstError } : {}) };
  process.stdout.write(`  ${name}: ${r.perSecond} orders/s (${r.orders} orders, ${errors} errors)\n`);
  return r;
}

// A fresh server answers slowly for its first seconds (JIT, pools, the SDK): every flow warms up
// unmeasured first, so the first measured run is not charged for it.
for (const name of ['finalize', 'demo', 'vouchers', 'stripe']) await run(`${name} (warm-up)`, 2);
const runs: Run[] = [];
for (const name of ['finalize (before)', 'demo', 'vouchers', 'stripe', 'finalize (after)']) runs.push(await run(name));
const counts = (await orm.execute<{ confirmed: number; refunds: number; finalized: number }>(sql`
  select (select count(*)::int from payments where state = 'confirmed') as confirmed,
         (select count(*)::int from refunds) as refunds,
         (select count(*)::int from orders where status = 'finalized') as finalized`)).rows[0]!;
const peak = atrium.peakRssMb();
await atrium.stop();
await stripe.close();

const base = (runs[0]!.perSecond + runs[4]!.perSecond) / 2;
const demo = runs[1]!.perSecond;
process.stdout.write(`\nPayments benchmark — ${db.where}, ${SECONDS}s per run, ${CONNECTIONS} flows at once, node ${process.version}\n`);
for (const r of runs) {
  process.stdout.write(
    `${r.name.padEnd(18)} ${String(r.perSecond).padStart(5)} orders/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(5)} ms  ` +
      `ratio to finalize ${(r.perSecond / base).toFixed(2)}` +
      (r.name === 'vouchers' ? `, to demo (the same paid order without code and card) ${(r.perSecond / demo).toFixed(2)}` : '') +
      `${r.errors ? `  errors ${r.errors}: ${r.firstError}` : ''}\n`,
  );
}
process.stdout.write(`payments confirmed ${counts.confirmed}, refunds ${counts.refunds}, orders finalized ${counts.finalized}; server peak RSS ${peak} MB\n`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(here, 'results', 'payments.json'),
  JSON.stringify({ at: new Date().toISOString(), where: db.where, seconds: SECONDS, connections: CONNECTIONS, finalizeBaseline: base, runs, counts, peakRssMb: peak }, null, 2) + '\n',
);
await db.dispose();
