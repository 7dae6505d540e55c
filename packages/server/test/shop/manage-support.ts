// Shared setup of the shop tests: an app with desk payments, a museum with a slot ticket, paid
// (finalized) orders with a manage link, a scanner token, and a form poster that carries the
// manage pages' CSRF cookie and field.
import { sql } from 'drizzle-orm';
import { testApp, type TestApp } from '../helpers/app.ts';
import * as f from '../helpers/factories.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import type { Ctx } from '../../src/domain/context.ts';
import { issueManageLink } from '../../src/domain/shop/manageLink.ts';

export interface ShopWorld {
  t: TestApp;
  staff: string;
  gate: string;
  museumId: number;
  ticketId: number;
  day: string;
  at(min: number): Date;
  /** A paid (finalized) order of `quantity` tickets at `min`, and a manage token for it. */
  paidOrder(quantity?: number, min?: number, ticketId?: number): Promise<{ id: number; token: string }>;
  order(id: number): Promise<any>;
  payments(id: number): Promise<any>;
  page(url: string): Promise<{ status: number; body: string; cookie: string }>;
  postForm(url: string, fields: Record<string, string | string[]>): Promise<{ status: number; body: string; location: string | undefined }>;
  scan(code: string): Promise<string>;
  sql<T>(q: ReturnType<typeof sql>): Promise<T[]>;
}

export async function shopWorld(opts: { testing?: Ctx['testing']; capacity?: number } = {}): Promise<ShopWorld> {
  const t = await testApp({ env: { ATRIUM_PAYMENT_PROVIDERS: 'desk,invoice' }, ...(opts.testing ? { testing: opts.testing } : {}) });
  const db = t.database.db;
  const museumId = (await f.museum(db)).id;
  const q = await f.quota(db, { museumId, capacity: opts.capacity ?? 50 });
  const ticketId = (await f.ticket(db, { museumId, quotaIds: [q.id] })).id;
  const staff = await t.token({ class: 'user', rights: ['*'] });
  const gate = await t.token({ class: 'entry', name: 'Gate', museumIds: [museumId] });
  const day = f.localDate(4);
  const at = (min: number) => zonedInstant(day, min, 'Europe/Berlin');
  let cookie = '';
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url: `/api/v4${url}`, token: staff, ...(payload ? { payload } : {}) });
  return {
    t, staff, gate, museumId, ticketId, day, at,
    async paidOrder(quantity = 1, min = 600, tid = ticketId) {
      const res = await api('POST', '/orders', { items: [{ type: 'Ticket', attributes: { id: tid, quantity, time: at(min).toISOString() } }] });
      if (res.statusCode !== 201) throw new Error(res.body);
      const o = res.json().order;
      const paid = await api('POST', `/orders/${o.id}/payments`, { payment: { provider: 'desk', amount_cents: o.total_price_cents, method: 'cash' } });
      if (paid.statusCode !== 201) throw new Error(paid.body);
      return { id: o.id as number, token: await issueManageLink({ db, clock: t.clock }, o.id) };
    },
    order: async (id) => (await api('GET', `/orders/${id}`)).json().order,
    payments: async (id) => (await api('GET', `/orders/${id}/payments`)).json(),
    async page(url) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...(cookie ? { cookie } : {}) } });
      const set = res.headers['set-cookie'];
      const c = (Array.isArray(set) ? set : set ? [set] : []).find((s) => s.startsWith('atrium_manage='));
      if (c) cookie = c.split(';')[0]!;
      return { status: res.statusCode, body: res.body, cookie };
    },
    async postForm(url, fields) {
      const csrf = cookie.split('=')[1] ?? '';
      const form = new URLSearchParams();
      form.append('_csrf', csrf);
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) form.append(k, x);
      const res = await t.app.inject({
        method: 'POST', url, payload: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', cookie },
      });
      return { status: res.statusCode, body: res.body, location: res.headers.location as string | undefined };
    },
    async scan(code) {
      const res = await t.request({ method: 'POST', url: '/api/v4/scans', token: gate, payload: { scan: { barcode: code, direction: 'entry' } } });
      if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(res.body);
      return res.json().scan.result as string;
    },
    async sql<T>(q: ReturnType<typeof sql>) {
      return (await db.execute(q)).rows as T[];
    },
  };
}
