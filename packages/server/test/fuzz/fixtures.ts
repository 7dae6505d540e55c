// What the fuzzer draws "real" values from: the demo catalogue (the same one `atrium serve --demo`
// loads), one token per token class, plus a few reservations, a customer and orders made through
// the API so that ids, reservation tokens and barcodes of every kind exist.
import { sql } from 'drizzle-orm';
import { seedDemo } from '../../src/domain/demo/seedDemo.ts';
import { addDays, localDateOf, zonedInstant } from '../../src/domain/time.ts';
import type { TestApp } from '../helpers/app.ts';

export const TOKEN_CLASSES = ['none', 'bad', 'public', 'user', 'user-scoped', 'reseller'] as const;
export type TokenClass = (typeof TOKEN_CLASSES)[number];

export interface Pools {
  /** Real values by hint name (museum, ticket, event, date, tour, ...). */
  ids: Record<string, Array<number | string>>;
  /** Local dates from yesterday to 40 days ahead. */
  dates: string[];
  /** Slot starts (UTC ISO) on those dates, 10:00–17:00 every 30 minutes, museum time. */
  times: string[];
  tokens: Record<TokenClass, string | undefined>;
}

const ZONE = 'Europe/Berlin';

async function column(t: TestApp, query: ReturnType<typeof sql>): Promise<Array<number | string>> {
  const res = await t.database.db.execute<{ v: number | string }>(query);
  return res.rows.map((r) => r.v);
}

export async function seedFixtures(t: TestApp): Promise<Pools> {
  await seedDemo({ db: t.database.db, clock: t.clock });
  const [firstMuseum] = await column(t, sql`select min(id) as v from museums`);
  const tokens: Record<TokenClass, string | undefined> = {
    none: undefined,
    bad: 'not-a-real-token-0123456789abcdef',
    public: await t.token({ class: 'public' }),
    user: await t.token({ class: 'user' }),
    'user-scoped': await t.token({ class: 'user', museumIds: [Number(firstMuseum)] }),
    reseller: await t.token({ class: 'reseller' }),
  };
  const today = localDateOf(t.clock.now(), ZONE);
  const dates = Array.from({ length: 42 }, (_, i) => addDays(today, i - 1));
  const times = dates.slice(1, 15).flatMap((d) => Array.from({ length: 15 }, (_, k) => zonedInstant(d, 600 + 30 * k, ZONE).toISOString()));

  // A few records that only the API creates, owned by the user and the reseller. They go on the
  // first day the demo sells (it closes on Mondays) whose slots are all still ahead, so the seed
  // depends neither on the weekday nor on the hour the suite runs at.
  const slotTicket = Number((await column(t, sql`select min(id) as v from tickets where ticket_type = 'time_slot'`))[0]);
  const day = await firstOpenDay(t, tokens.user!, slotTicket, times);
  for (const who of ['user', 'reseller'] as const) {
    const token = tokens[who]!;
    await t.request({ method: 'POST', url: '/api/v4/customers', token, payload: { name: 'Ada', surname: 'Fuzz', email: `ada-${who}@example.org`, foreign_id: `fz-${who}` } });
    for (let i = 0; i < 3; i++) {
      const res = await t.request({ method: 'POST', url: '/api/v4/tickets/reservations', token, payload: { ticket_id: slotTicket, quantity: 1, start_at: day[2 + i] } });
      if (res.statusCode >= 300) throw new Error(`fixture reservation failed: ${res.statusCode} ${res.body}`);
    }
    for (const finalize of [false, true]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v4/orders',
        token,
        payload: { foreign_id: `fz-order-${who}-${finalize}`, finalize, items: [{ type: 'Ticket', attributes: { id: slotTicket, quantity: 1, time: day[8] } }] },
      });
      if (res.statusCode >= 300) throw new Error(`fixture order failed: ${res.statusCode} ${res.body}`);
    }
  }

  const ids: Pools['ids'] = {
    museum: await column(t, sql`select id as v from museums`),
    exhibition: await column(t, sql`select id as v from exhibitions`),
    ticket: await column(t, sql`select id as v from tickets`),
    event: await column(t, sql`select id as v from events`),
    date: await column(t, sql`select id as v from event_dates order by start_at limit 40`),
    tour: await column(t, sql`select id as v from tours`),
    quota: await column(t, sql`select id as v from quotas`),
    language: await column(t, sql`select id as v from languages`),
    customer: await column(t, sql`select id as v from customers`),
    customer_foreign: await column(t, sql`select foreign_id as v from customers where foreign_id is not null`),
    order: await column(t, sql`select id as v from orders`),
    order_foreign: await column(t, sql`select foreign_id as v from orders where foreign_id is not null`),
    reservation: await column(t, sql`select token as v from reservations`),
    barcode: await column(t, sql`select code as v from barcodes`),
    locale: ['de', 'en'],
  };
  for (const [k, v] of Object.entries(ids)) if (v.length === 0) throw new Error(`fixtures: no ${k}`);
  return { ids, dates, times, tokens };
}

/** The slot starts (15 a day) of the first day in `times` the museum sells `ticket` on, asked of
 *  the API itself (a reservation taken and released) rather than restating its opening rules. */
async function firstOpenDay(t: TestApp, token: string, ticket: number, times: string[]): Promise<string[]> {
  for (let d = 0; d + 15 <= times.length; d += 15) {
    // Today's slots pass as the suite runs; only a day that has not begun yet keeps every slot sellable.
    if (new Date(times[d]!).getTime() <= t.clock.now().getTime()) continue;
    const res = await t.request({ method: 'POST', url: '/api/v4/tickets/reservations', token, payload: { ticket_id: ticket, quantity: 1, start_at: times[d + 8] } });
    if (res.statusCode !== 201) continue;
    await t.request({ method: 'DELETE', url: `/api/v4/tickets/reservations/${res.json().reservation.token}`, token });
    return times.slice(d, d + 15);
  }
  throw new Error('fixtures: the demo sells on none of the next 14 days');
}
