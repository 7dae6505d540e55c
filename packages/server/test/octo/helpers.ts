// Shared set-up of the OCTO tests: an app with a START_TIME ticket, an OPENING_HOURS ticket and a
// small ticket to sell out, reseller tokens, and answers checked against @octocloud/types' zod
// schemas (the machine-readable OCTO specification).
import assert from 'node:assert/strict';
import * as octo from '@octocloud/types';
import * as f from '../helpers/factories.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

export { octo };

export interface OctoWorld {
  t: TestApp;
  reseller: string;
  other: string;
  user: string;
  slotted: string;
  day: string;
  small: string;
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, o?: { token?: string | null; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

export async function octoWorld(opts: { now?: string; env?: Record<string, string> } = {}): Promise<OctoWorld> {
  const t = await testApp({ now: opts.now ?? '2026-12-01T08:00:00Z', ...(opts.env ? { env: opts.env } : {}) });
  const db = t.database.db;
  // Closed on Mondays (index 0), open 10:00–18:00 on the other days.
  const open: [number, number] = [600, 1080];
  const m = await f.museum(db, { openingHours: [null, open, open, open, open, open, open] });
  const q = await f.quota(db, { museumId: m.id, capacity: 60 });
  const qd = await f.quota(db, { museumId: m.id, capacity: 300, kind: 'day' });
  const qs = await f.quota(db, { museumId: m.id, capacity: 2 });
  const a = await f.ticket(db, { museumId: m.id, quotaIds: [q.id], maxPersons: 10, resellerPriceCents: 1200 });
  const d = await f.ticket(db, { museumId: m.id, quotaIds: [qd.id], ticketType: 'normal', entryDuration: null, title: { de: 'Tageskarte Kinder', en: 'Day ticket children' }, priceCents: 800 });
  const s = await f.ticket(db, { museumId: m.id, quotaIds: [qs.id], maxPersons: 2, title: { de: 'Kuratorenführung', en: 'Curator tour' } });
  const reseller = await t.token({ class: 'reseller' });
  const other = await t.token({ class: 'reseller' });
  const user = await t.token({ class: 'user' });
  return {
    t, reseller, other, user,
    slotted: `ticket-${a.id}`, day: `ticket-${d.id}`, small: `ticket-${s.id}`,
    async call(method, url, body, o = {}) {
      const token = o.token === undefined ? reseller : o.token;
      const res = await t.request({
        method, url: `/octo${url}`,
        headers: { 'octo-capabilities': '', ...(o.headers ?? {}) },
        ...(body !== undefined ? { payload: body as object } : {}),
        ...(token ? { token } : {}),
      });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null, headers: res.headers };
    },
  };
}

/** Asserts an answer parses with the zod schema; returns the answer. */
export function valid<T>(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: T, what: string): T {
  const r = schema.safeParse(value);
  assert.ok(r.success, `${what} does not match the OCTO schema: ${JSON.stringify(r.error, null, 1)?.slice(0, 2000)}\n${JSON.stringify(value).slice(0, 1500)}`);
  return value;
}

/** An OCTO error answer: HTTP status, code, and the id echoed under its key. */
export function octoError(res: { status: number; body: any }, code: string, id?: [string, string]) {
  assert.equal(res.status, code === 'INTERNAL_SERVER_ERROR' ? 500 : 400, JSON.stringify(res.body));
  assert.equal(res.body.error, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.errorMessage, 'string');
  if (id) assert.equal(res.body[id[0]], id[1]);
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/;
