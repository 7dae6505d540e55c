// EVERY console route with the roles allowed to use it. roles.test.ts runs each route as every
// role (scoped to museum A), anonymously, and as a user scoped to museum B only; it also fails
// when a route registered through consoleRoute() is missing here. Add your routes here.
import type { StaffRole } from '../../src/domain/staff/permissions.ts';
import type { ConsoleFixture } from './fixture.ts';
import * as b from './backoffice.ts';
import * as pay from './payments.ts';
import type { UploadFile } from './support.ts';
import { photoWithGps } from '../media/pictures.ts';

export interface RouteCase {
  method: 'GET' | 'POST';
  /** The route as registered ("/console/orders/:id"). */
  route: string;
  allowed: readonly StaffRole[];
  /** A concrete request on fresh objects of museum A (called once per attempt). */
  make(fx: ConsoleFixture): Promise<{ url: string; form?: Record<string, string | string[]>; file?: UploadFile }>;
  /**
   * What a user scoped to museum B (with a role allowed the action) gets: 'notfound' when the
   * route addresses a museum-A object, 'refused' when the domain refuses the input (422: a sale of
   * a museum-A ticket is "not bookable"), 'ok' for pages that list only their own museums' data.
   */
  otherMuseum: 'notfound' | 'refused' | 'ok';
  /** Text of museum A that must not appear for the museum-B user ('ok' pages). */
  leak?(fx: ConsoleFixture): Promise<string>;
}

export const ALL: readonly StaffRole[] = ['admin', 'manager', 'box_office', 'viewer'];
export const SELLERS: readonly StaffRole[] = ['admin', 'manager', 'box_office'];
export const MANAGERS: readonly StaffRole[] = ['admin', 'manager'];
export const ADMINS: readonly StaffRole[] = ['admin'];

/** Routes that need no session (sign-in, set-password links) and are covered by their own tests. */
export const PUBLIC_ROUTES = ['GET /console', 'GET /console/login', 'POST /console/login', 'GET /console/set-password/:token', 'POST /console/set-password/:token'];

export const ROUTES: RouteCase[] = [
  // Own account (every role). Sign-out routes end the session: tested last per role.
  { method: 'GET', route: '/console/account', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/account' }) },
  { method: 'POST', route: '/console/locale', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/locale', form: { locale: 'en', back: '/console/day' } }) },
  { method: 'POST', route: '/console/account/password', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/account/password', form: { current: 'wrong password!', next: 'x', repeat: 'y' } }) },
  // The day
  { method: 'GET', route: '/console/day', allowed: ALL, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/day?date=${fx.day}` }) },
  // Orders
  {
    method: 'GET', route: '/console/orders', allowed: ALL, otherMuseum: 'ok',
    make: async (fx) => { await fx.order(fx.A, { surname: 'Sichtbarnurina' }); return { url: '/console/orders?q=Sichtbarnurina' }; },
    leak: async () => 'Sichtbarnurina</td>',
  },
  { method: 'GET', route: '/console/orders/:id', allowed: ALL, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/orders/${(await fx.order(fx.A)).id}` }) },
  {
    method: 'POST', route: '/console/orders/:id/cancel', allowed: SELLERS, otherMuseum: 'notfound',
    make: async (fx) => { const o = await fx.order(fx.A, { items: 2 }); return { url: `/console/orders/${o.id}/cancel`, form: { item: String(o.itemIds[0]), confirm: '1' } }; },
  },
  { method: 'POST', route: '/console/orders/:id/resend', allowed: SELLERS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/orders/${(await fx.order(fx.A)).id}/resend` }) },
  {
    method: 'POST', route: '/console/orders/:id/refunds', allowed: MANAGERS, otherMuseum: 'notfound',
    make: async (fx) => ({ url: `/console/orders/${(await pay.paidOrder(fx)).id}/refunds`, form: { amount: '1,00', reason: 'Kulanz' } }),
  },
  {
    method: 'POST', route: '/console/orders/:id/refunds/:rid/retry', allowed: MANAGERS, otherMuseum: 'notfound',
    make: async (fx) => { const r = await pay.failedRefund(fx); return { url: `/console/orders/${r.orderId}/refunds/${r.refundId}/retry` }; },
  },
  { method: 'GET', route: '/console/documents/:id', allowed: ALL, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/documents/${await documentOf(fx)}` }) },
  // Box office
  // Cash closing: the own day (any museum scope: it is the cashier's own drawer).
  { method: 'GET', route: '/console/closing', allowed: SELLERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/closing?date=${fx.day}` }) },
  { method: 'POST', route: '/console/closing', allowed: SELLERS, otherMuseum: 'ok', make: async () => ({ url: '/console/closing', form: { date: nextClosingDate(), float: '100', counted: '100' } }) },
  { method: 'GET', route: '/console/closing/:id', allowed: SELLERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/closing/${await boxOfficeClosing(fx)}` }) },
  { method: 'GET', route: '/console/closing/:id/csv', allowed: SELLERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/closing/${await boxOfficeClosing(fx)}/csv` }) },
  { method: 'GET', route: '/console/closing/:id/pdf', allowed: SELLERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/closing/${await boxOfficeClosing(fx)}/pdf` }) },
  { method: 'GET', route: '/console/sale', allowed: SELLERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/sale?date=${fx.day}` }) },
  {
    method: 'POST', route: '/console/sale', allowed: SELLERS, otherMuseum: 'refused',
    make: async (fx) => ({ url: '/console/sale', form: { key: crypto.randomUUID(), date: fx.day, line: `T:${fx.A.ticketId}:${fx.at(720)}:1`, op: 'sell', payment: 'cash', delivery: 'print' } }),
  },
  // Requests
  { method: 'GET', route: '/console/requests', allowed: ALL, otherMuseum: 'ok', make: async (fx) => { await fx.request(fx.A, { notes: 'Nurmuseuma' }); return { url: '/console/requests' }; }, leak: async () => 'Nurmuseuma' },
  { method: 'POST', route: '/console/requests/:id/accept', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/requests/${await fx.request(fx.A)}/accept`, form: { confirm: '1' } }) },
  { method: 'POST', route: '/console/requests/:id/decline', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/requests/${await fx.request(fx.A)}/decline`, form: { reason: 'Fully booked' } }) },
  // Schedules and closures (engineer B)
  { method: 'GET', route: '/console/schedules', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/schedules' }), leak: async (fx) => `value="${fx.A.id}" selected` },
  { method: 'POST', route: '/console/schedules/hours', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/schedules/hours', form: { museum_id: String(fx.A.id), ...b.openWeek() } }) },
  { method: 'POST', route: '/console/capacities', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/capacities', form: { quota_id: String(await b.quotaOfA(fx)), date: b.freshDay(), capacity: '40' } }) },
  { method: 'POST', route: '/console/event-dates/preview', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/event-dates/preview', form: { event_id: String(await b.eventOfA(fx)), weekdays: ['SA', 'SU'], ends: 'count', count: '4', start_date: b.freshDay(), start_time: '14:00', seats: '10' } }) },
  { method: 'POST', route: '/console/event-dates', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/event-dates', form: { event_id: String(await b.eventOfA(fx)), rrule: 'FREQ=DAILY;COUNT=2', start_date: b.freshDay(), start_time: '14:00', seats: '10' } }) },
  { method: 'POST', route: '/console/closures/preview', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/closures/preview', form: { museum_id: String(fx.A.id), start_date: b.freshDay() } }) },
  { method: 'POST', route: '/console/closures', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/closures', form: { museum_id: String(fx.A.id), start_date: b.freshDay(), reason: 'Sturm' } }) },
  { method: 'POST', route: '/console/closures/:id/delete', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/closures/${await b.closureOfA(fx)}/delete`, form: { confirm: '1' } }) },
  // Partners, tokens, webhooks (engineer B): admins only
  { method: 'GET', route: '/console/partners', allowed: ADMINS, otherMuseum: 'ok', make: async (fx) => { await b.partnerOfA(fx); return { url: '/console/partners' }; }, leak: async () => 'Partner A ' },
  { method: 'POST', route: '/console/partners', allowed: ADMINS, otherMuseum: 'refused', make: async (fx) => ({ url: '/console/partners', form: { name: 'Neu', class: 'reseller', museum_ids: String(fx.A.id) } }) },
  { method: 'GET', route: '/console/partners/:id', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/partners/${(await b.partnerOfA(fx)).accountId}` }) },
  { method: 'POST', route: '/console/tokens/:id/rotate', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/tokens/${(await b.partnerOfA(fx)).tokenId}/rotate` }) },
  { method: 'POST', route: '/console/tokens/:id/revoke', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/tokens/${(await b.partnerOfA(fx)).tokenId}/revoke`, form: { confirm: '1' } }) },
  { method: 'POST', route: '/console/partners/:id/webhooks', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/partners/${(await b.partnerOfA(fx)).accountId}/webhooks`, form: { url: 'https://93.184.216.34/h', events: 'order.created' } }) },
  { method: 'GET', route: '/console/partners/:id/webhooks/:wid', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => { const h = await b.hookOfA(fx); return { url: `/console/partners/${h.accountId}/webhooks/${h.hookId}` }; } },
  { method: 'POST', route: '/console/partners/:id/webhooks/:wid/delete', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => { const h = await b.hookOfA(fx); return { url: `/console/partners/${h.accountId}/webhooks/${h.hookId}/delete` }; } },
  { method: 'POST', route: '/console/partners/:id/webhooks/:wid/test', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => { const h = await b.hookOfA(fx); return { url: `/console/partners/${h.accountId}/webhooks/${h.hookId}/test` }; } },
  {
    method: 'POST', route: '/console/partners/:id/webhooks/:wid/deliveries/:did/retry', allowed: ADMINS, otherMuseum: 'notfound',
    make: async (fx) => { const d = await b.deliveryOfA(fx); return { url: `/console/partners/${d.accountId}/webhooks/${d.hookId}/deliveries/${d.deliveryId}/retry` }; },
  },
  // Reports and the audit log (engineer B)
  { method: 'GET', route: '/console/reports', allowed: MANAGERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/reports?from=${fx.day}&to=${fx.day}` }), leak: async (fx) => `value="${fx.A.id}"` },
  { method: 'GET', route: '/console/reports/sales.csv', allowed: MANAGERS, otherMuseum: 'ok', make: async () => ({ url: '/console/reports/sales.csv' }) },
  { method: 'GET', route: '/console/reports/visitors.csv', allowed: MANAGERS, otherMuseum: 'ok', make: async () => ({ url: '/console/reports/visitors.csv' }) },
  { method: 'GET', route: '/console/reports/payments', allowed: MANAGERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/reports/payments?from=${fx.day}&to=${fx.day}` }), leak: async (fx) => `value="${fx.A.id}"` },
  { method: 'GET', route: '/console/reports/payments.csv', allowed: MANAGERS, otherMuseum: 'ok', make: async () => ({ url: '/console/reports/payments.csv' }) },
  { method: 'GET', route: '/console/audit', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/audit' }) },
  // Gift cards and promo codes: the instance's, so a user of another museum sees them too.
  { method: 'GET', route: '/console/gift-cards', allowed: ALL, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/gift-cards?q=${await giftCardOf(fx)}` }) },
  { method: 'GET', route: '/console/gift-cards/:id', allowed: ALL, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/gift-cards/${await giftCardOf(fx)}` }) },
  { method: 'POST', route: '/console/gift-cards/:id/correct', allowed: MANAGERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/gift-cards/${await giftCardOf(fx)}/correct`, form: { amount: '1,00', reason: 'Kulanz', confirm: '1' } }) },
  { method: 'GET', route: '/console/sale/gift-card', allowed: SELLERS, otherMuseum: 'ok', make: async () => ({ url: '/console/sale/gift-card' }) },
  { method: 'POST', route: '/console/sale/gift-card', allowed: SELLERS, otherMuseum: 'ok', make: async () => ({ url: '/console/sale/gift-card', form: { value: '2500', payment: 'card' } }) },
  { method: 'GET', route: '/console/promo-codes', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/promo-codes' }) },
  { method: 'POST', route: '/console/promo-codes', allowed: MANAGERS, otherMuseum: 'ok', make: async () => ({ url: '/console/promo-codes', form: { code: `ROLE${crypto.randomUUID().slice(0, 8)}`.replace(/-/g, ''), kind: 'percent', percent: '10' } }) },
  { method: 'POST', route: '/console/promo-codes/:id/active', allowed: MANAGERS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/promo-codes/${await promoCodeOf(fx)}/active`, form: { active: '0' } }) },
  { method: 'GET', route: '/console/reports/gift-cards', allowed: ADMINS, otherMuseum: 'ok', make: async (fx) => ({ url: `/console/reports/gift-cards?from=${fx.day}&to=${fx.day}` }) },
  { method: 'GET', route: '/console/reports/gift-cards/ledger.csv', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/reports/gift-cards/ledger.csv' }) },
  { method: 'GET', route: '/console/reports/gift-cards/liability.csv', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/reports/gift-cards/liability.csv' }) },
  // Shop settings: instance-wide, admins only.
  { method: 'GET', route: '/console/pictures', allowed: MANAGERS, otherMuseum: 'ok', make: async () => ({ url: '/console/pictures' }) },
  { method: 'POST', route: '/console/pictures', allowed: MANAGERS, otherMuseum: 'notfound', make: async (fx) => ({ url: '/console/pictures', form: { target_type: 'ticket', target_id: String(fx.A.ticketId), title: 'Saal' }, file: { name: 'saal.jpg', type: 'image/jpeg', bytes: await photoWithGps(40, 30) } }) },
  { method: 'GET', route: '/console/shop', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/shop' }) },
  { method: 'POST', route: '/console/shop', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/shop', form: { title_de: 'Tickets', title_en: 'Tickets', colour: '#112233', cancellation: 'hours', cancellation_hours: '24' } }) },
  // Staff users: admins only; an admin of museum B finds no user of museum A.
  { method: 'GET', route: '/console/staff', allowed: ADMINS, otherMuseum: 'ok', make: async () => ({ url: '/console/staff' }), leak: async (fx) => fx.staff.manager },
  { method: 'POST', route: '/console/staff', allowed: ADMINS, otherMuseum: 'refused', make: async (fx) => ({ url: '/console/staff', form: { email: `new-${crypto.randomUUID()}@example.org`, role: 'viewer', museum_ids: String(fx.A.id) } }) },
  { method: 'POST', route: '/console/staff/:id/password', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/staff/${await staffOfA(fx)}/password`, form: { confirm: '1' } }) },
  { method: 'POST', route: '/console/staff/:id/disable', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/staff/${await staffOfA(fx)}/disable`, form: { confirm: '1' } }) },
  { method: 'POST', route: '/console/staff/:id/enable', allowed: ADMINS, otherMuseum: 'notfound', make: async (fx) => ({ url: `/console/staff/${await staffOfA(fx)}/enable` }) },
];

/** A fresh viewer of museum A (each attempt acts on its own user), written without an audit entry. */
async function staffOfA(fx: ConsoleFixture): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const [row] = (await fx.t.database.db.execute<{ id: number }>(sql`insert into staff_users (email, password_hash, role, museum_ids, created_at, password_changed_at)
    values (${`viewer-${crypto.randomUUID()}@example.org`}, 'unused', 'viewer', ${`{${fx.A.id}}`}::integer[], now(), now()) returning id`)).rows;
  return row!.id;
}

/** Sign-out routes: allowed to every role; run after the others since they end the session. */
export const SIGN_OUT: RouteCase[] = [
  { method: 'POST', route: '/console/logout', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/logout' }) },
  { method: 'POST', route: '/console/logout-everywhere', allowed: ALL, otherMuseum: 'ok', make: async () => ({ url: '/console/logout-everywhere' }) },
];

/** A finalized order's ticket PDF, rendered by the document job. */
async function documentOf(fx: ConsoleFixture): Promise<number> {
  const o = await fx.order(fx.A);
  const { runDocumentJobs } = await import('./documents.ts');
  return runDocumentJobs(fx, o.id);
}

let closingDay = 0;
/** A fresh business date per closing (one closing per cashier and day). */
function nextClosingDate(): string {
  closingDay += 1;
  return new Date(Date.UTC(2020, 0, closingDay)).toISOString().slice(0, 10);
}

/** A closed record of museum A's box-office user: managers and admins may read it, the cashier too. */
async function boxOfficeClosing(fx: ConsoleFixture): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const db = fx.t.database.db;
  const [u] = (await db.execute<{ id: number }>(sql`select id from staff_users where email = ${fx.staff.box_office}`)).rows;
  const [row] = (await db.execute<{ id: number }>(sql`insert into cash_closings (staff_user_id, business_date, opening_float_cents, expected_cash_cents, counted_cash_cents, difference_cents, summary, closed_at, closed_by)
    values (${u!.id}, ${nextClosingDate()}, 0, 0, 0, 0, ${JSON.stringify({ date: '2020-01-01', cashier: { id: u!.id, email: fx.staff.box_office }, sales: { cash: 0, card: 0, invoice: 0, total: 0 }, refunds: { cash: 0, card: 0, invoice: 0, total: 0 }, cancellations: { lines: 0, gross_cents: 0 }, vat: [], vat_total: { net_cents: 0, vat_cents: 0, gross_cents: 0 }, expected_cash_cents: 0 })}::jsonb, now(), ${u!.id}) returning id`)).rows;
  return row!.id;
}

/** A gift card issued over the API (its id), once: issuing writes an audit entry, so not per attempt. */
let giftCard: Promise<number> | null = null;
const giftCardOf = (fx: ConsoleFixture) => (giftCard ??= issueGiftCard(fx));
async function issueGiftCard(fx: ConsoleFixture): Promise<number> {
  const res = await fx.t.request({ method: 'POST', url: '/api/v4/gift_cards', token: fx.user, payload: { amount_cents: 5000 } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().gift_card.id;
}

/** A promo code created over the API (its id), once, as the gift card. */
let promoCode: Promise<number> | null = null;
const promoCodeOf = (fx: ConsoleFixture) => (promoCode ??= createPromo(fx));
async function createPromo(fx: ConsoleFixture): Promise<number> {
  const code = `R${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const res = await fx.t.request({ method: 'POST', url: '/api/v4/promo_codes', token: fx.user, payload: { code, kind: 'percent', percent: 5 } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().promo_code.id;
}
