// A shop world for the HTTP tests: one museum with two time-slot tickets on one grid (regular and
// reduced, sharing a slot quota), a day ticket, an event with a date and a tour in two
// languages; and a visitor: app.inject with a cookie jar, the CSRF token read from the pages.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';

export interface ShopWorld {
  t: TestApp;
  museumId: number;
  regular: number;
  reduced: number;
  dayTicket: number;
  eventId: number;
  dateId: number;
  tourId: number;
  langs: [number, number];
  /** A bookable day (three days ahead) and a slot's ISO start on it. */
  day: string;
  slot(min: number): string;
}

export async function shopWorld(opts: { capacity?: number; env?: Record<string, string>; testing?: { disableCapacityLocks: boolean } } = {}): Promise<ShopWorld> {
  const t = await testApp({ env: { ATRIUM_DEMO: 'true', ...opts.env }, ...(opts.testing ? { testing: opts.testing } : {}) });
  const db = t.database.db;
  const m = await f.museum(db);
  const q = await f.quota(db, { museumId: m.id, capacity: opts.capacity ?? 40 });
  const regular = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], title: { de: 'Zeitfenster regulär', en: 'Timed regular' }, minPersons: 1, maxPersons: 8 });
  const reduced = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], title: { de: 'Zeitfenster ermäßigt', en: 'Timed reduced' }, priceCents: 900, minPersons: 1, maxPersons: 8 });
  const dayT = await f.ticket(db, { museumId: m.id, ticketType: 'normal', title: { de: 'Tageskarte', en: 'Day ticket' }, priceCents: 1800 });
  const de = await f.language(db, { code: 'de', name: 'Deutsch' });
  const en = await f.language(db, { code: 'en', name: 'English' });
  const day = f.localDate(3);
  const ev = await f.event(db, { museumId: m.id, title: { de: 'Kuratorengespräch', en: 'Curator talk' }, priceCents: 500 });
  const date = await f.eventDate(db, { eventId: ev.id, startAt: zonedInstant(day, 15 * 60, 'Europe/Berlin'), seatsMax: 10, languageId: de.id });
  const tour = await f.tour(db, { museumId: m.id, languageIds: [de.id, en.id], minPersons: 1, maxPersons: 20, windowStart: 600, windowEnd: 960, step: 60, vatPct: 19 });
  return {
    t, museumId: m.id, regular: regular.id, reduced: reduced.id, dayTicket: dayT.id, eventId: ev.id, dateId: date.id, tourId: tour.id, langs: [de.id, en.id], day,
    slot: (min) => zonedInstant(day, min, 'Europe/Berlin').toISOString(),
  };
}

/**
 * A shop world that writes its mails as .eml files into a data directory of its own (no SMTP
 * server); `close` closes the app and removes the directory.
 */
export async function shopWorldWithMailFiles(): Promise<{ w: ShopWorld; dataDir: string; close(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'atrium-shop-'));
  const w = await shopWorld({ env: { ATRIUM_DATA_DIR: dataDir } });
  return {
    w,
    dataDir,
    async close() {
      await w.t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A visitor with its own cookies (and address), as a browser without JavaScript would act. */
export class Visitor {
  cookies: Record<string, string> = {};
  csrf = '';
  constructor(private t: TestApp, private opts: { lang?: string; ip?: string } = {}) {}

  private remember(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (c.maxAge === 0 || c.value === '') delete this.cookies[c.name];
      else this.cookies[c.name] = c.value;
    }
    const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (m) this.csrf = m[1]!;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({ method: 'GET', url, cookies: this.cookies, headers: this.headers(), remoteAddress: this.opts.ip ?? '127.0.0.1' });
    this.remember(res);
    return res;
  }

  async post(url: string, form: Record<string, string | number>, opts: { csrf?: string } = {}): Promise<LightMyRequestResponse> {
    if (!this.cookies.atrium_shop) await this.get('/shop');
    // The page's hidden field carries the visitor cookie's value (double submit).
    const body = new URLSearchParams({ _csrf: opts.csrf ?? (this.csrf || this.cookies.atrium_shop!), ...Object.fromEntries(Object.entries(form).map(([k, v]) => [k, String(v)])) }).toString();
    const res = await this.t.app.inject({
      method: 'POST', url, cookies: this.cookies, payload: body, remoteAddress: this.opts.ip ?? '127.0.0.1',
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    this.remember(res);
    return res;
  }

  private headers(): Record<string, string> {
    return this.opts.lang ? { 'accept-language': this.opts.lang } : {};
  }
}

export function redirectOf(res: LightMyRequestResponse): string {
  assert.equal(res.statusCode, 303, `expected a redirect, got ${res.statusCode}: ${res.body.slice(0, 600)}`);
  return res.headers.location as string;
}

/** Puts `quantity` regular (and `reduced`) tickets of one slot in the visitor's cart. */
export async function addTickets(v: Visitor, w: ShopWorld, o: { regular?: number; reduced?: number; min?: number } = {}) {
  return v.post('/shop/cart/tickets', { ticket: w.regular, slot: w.slot(o.min ?? 600), [`q_${w.regular}`]: o.regular ?? 2, [`q_${w.reduced}`]: o.reduced ?? 0 });
}

export async function checkout(v: Visitor, o: { name?: string; surname?: string; email?: string } = {}) {
  return v.post('/shop/checkout', { name: o.name ?? 'Ada', surname: o.surname ?? 'Lovelace', email: o.email ?? 'ada@example.org', consent: 'yes' });
}

/** Pays a pending order with the demo provider: the pay form, the demo page's button, the return. */
export async function payWithDemo(v: Visitor, t: TestApp, orderPath: string) {
  const pay = await v.post(`${orderPath}/pay`, { provider: 'demo' });
  const demoUrl = new URL(redirectOf(pay));
  assert.match(demoUrl.pathname, /^\/api\/v4\/payments\/demo\/demo_/);
  const page = await t.app.inject({ method: 'GET', url: demoUrl.pathname });
  assert.equal(page.statusCode, 200);
  const done = await t.app.inject({ method: 'POST', url: demoUrl.pathname, payload: 'outcome=paid', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(done.statusCode, 200, done.body);
  const back = /href="([^"]+)"/.exec(done.body)![1]!.replace(/&#38;/g, '&');
  const ret = await v.get(new URL(back).pathname);
  assert.equal(redirectOf(ret), orderPath);
  return v.get(orderPath);
}
