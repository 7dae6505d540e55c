// Domain-level tests of the capacity module: quota slots, overrides and closures, day quotas on
// DST days, event dates, tours, release/confirm — against a real database.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { claimCapacity } from '../../src/domain/capacity/claimCapacity.ts';
import { confirmCapacity } from '../../src/domain/capacity/confirmCapacity.ts';
import { eventDateSeatsBooked } from '../../src/domain/capacity/eventDateSeatsBooked.ts';
import { releaseCapacity } from '../../src/domain/capacity/releaseCapacity.ts';
import type { Claim, Holder } from '../../src/domain/capacity/types.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { zonedInstant } from '../../src/domain/time.ts';
import { orderItems, orders, reservations } from '../../src/db/schema/index.ts';
import * as f from '../helpers/factories.ts';
import { testApp } from '../helpers/app.ts';

const t = await testApp({ now: '2026-03-01T08:00:00Z' });
after(() => t.close());
const db = t.database.db;
const ctx = systemCtx({ db, clock: t.clock, config: t.config });
const Z = 'Europe/Berlin';
const m = await f.museum(db);
const account = await t.token({ class: 'user' }).then(async () => (await db.query.accounts.findFirst())!.id);

let n = 0;
/** A reservation row to own allocations (holders must exist: foreign key). */
async function holder(ticketId: number | null = null, eventDateId: number | null = null): Promise<Holder> {
  n += 1;
  const now = t.clock.now();
  const [r] = await db
    .insert(reservations)
    .values({ token: `h${n}-${Math.random()}`, accountId: account, ticketId, eventDateId: ticketId ? null : eventDateId, quantity: 1, startAt: now, createdAt: now, expiresAt: now, lifetimeEndsAt: now })
    .returning();
  return { reservationId: r!.id };
}

async function claim(c: Claim, opts: { expiresAt?: Date | null; holder?: Holder } = {}) {
  const h = opts.holder ?? (c.kind === 'event_date' ? await holder(null, c.eventDateId) : await holder(c.kind === 'ticket' ? c.ticketId : null, 1));
  return db.transaction((tx) => claimCapacity(tx, ctx, [{ claim: c, holder: h, expiresAt: opts.expiresAt ?? null }]));
}

async function rejects(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (e: unknown) => e instanceof DomainError && e.code === code);
}

test('slot quota: claims up to capacity, then SLOT_SOLD_OUT; above total → QUANTITY_ABOVE_CAPACITY', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 10 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const at = zonedInstant('2026-03-10', 600, Z);
  const [res] = await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 7 });
  assert.equal(res!.startAt.getTime(), at.getTime());
  assert.equal(res!.endAt.getTime(), at.getTime() + 30 * 60_000);
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 4 }), 'SLOT_SOLD_OUT');
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 3 });
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 11 }), 'QUANTITY_ABOVE_CAPACITY');
  // Another slot of the same quota is independent.
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-10', 630, Z), quantity: 10 });
});

test('off-grid start, past slot and validity window are refused', async () => {
  const tk = await f.ticket(db, { museumId: m.id, validUntil: '2026-06-30' });
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-10', 615, Z), quantity: 1 }), 'VALIDATION_FAILED');
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-10', 1050, Z), quantity: 1 }), 'VALIDATION_FAILED');
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-02-27', 600, Z), quantity: 1 }), 'DATE_IN_PAST');
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-07-01', 600, Z), quantity: 1 }), 'VALIDATION_FAILED');
  // No quota: unlimited.
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-10', 600, Z), quantity: 100000 });
});

test('shared quota: tickets in one quota consume each other; a ticket is limited by all its quotas', async () => {
  const shared = await f.quota(db, { museumId: m.id, capacity: 10 });
  const small = await f.quota(db, { museumId: m.id, capacity: 3 });
  const a = await f.ticket(db, { museumId: m.id, quotaIds: [shared.id] });
  const b = await f.ticket(db, { museumId: m.id, quotaIds: [shared.id, small.id] });
  const at = zonedInstant('2026-03-11', 600, Z);
  await claim({ kind: 'ticket', ticketId: a.id, startAt: at, quantity: 6 });
  await rejects(claim({ kind: 'ticket', ticketId: b.id, startAt: at, quantity: 4 }), 'QUANTITY_ABOVE_CAPACITY');
  await claim({ kind: 'ticket', ticketId: b.id, startAt: at, quantity: 3 });
  await rejects(claim({ kind: 'ticket', ticketId: a.id, startAt: at, quantity: 2 }), 'SLOT_SOLD_OUT');
  await claim({ kind: 'ticket', ticketId: a.id, startAt: at, quantity: 1 });
});

test('overrides: a date-specific capacity wins; null closes the day (NOT_BOOKABLE)', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 10 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  await f.quotaOverride(db, { quotaId: q.id, date: '2026-03-12', capacity: 2 });
  await f.quotaOverride(db, { quotaId: q.id, date: '2026-03-13', capacity: null });
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-12', 600, Z), quantity: 3 }), 'QUANTITY_ABOVE_CAPACITY');
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-12', 600, Z), quantity: 2 });
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: zonedInstant('2026-03-13', 600, Z), quantity: 1 }), 'NOT_BOOKABLE');
});

test('day tickets normalise to first entry; day quotas count per local day, also on DST days', async () => {
  const q = await f.quota(db, { museumId: m.id, kind: 'day', capacity: 5 });
  const day = await f.ticket(db, { museumId: m.id, ticketType: 'normal', firstEntry: 540, lastEntry: 1020, quotaIds: [q.id] });
  const slot = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  for (const date of ['2026-03-29', '2026-10-25']) {
    const [r] = await claim({ kind: 'ticket', ticketId: day.id, startAt: zonedInstant(date, 800, Z), quantity: 3 });
    assert.equal(r!.startAt.getTime(), zonedInstant(date, 540, Z).getTime());
    // The slot ticket at 16:30 draws from the same day quota key (local midnight).
    await rejects(claim({ kind: 'ticket', ticketId: slot.id, startAt: zonedInstant(date, 990, Z), quantity: 3 }), 'SLOT_SOLD_OUT');
    await claim({ kind: 'ticket', ticketId: slot.id, startAt: zonedInstant(date, 990, Z), quantity: 2 });
  }
  const keys = await db.query.capacityAllocations.findMany({ where: (a, { eq }) => eq(a.resourceId, q.id) });
  const starts = new Set(keys.map((k) => k.slotStart.toISOString()));
  assert.deepEqual([...starts].sort(), ['2026-03-28T23:00:00.000Z', '2026-10-24T22:00:00.000Z']);
});

test('DST days: slot instants follow wall-clock minutes', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 1 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const [spring] = await claim({ kind: 'ticket', ticketId: tk.id, startAt: new Date('2026-03-29T08:00:00Z'), quantity: 1 });
  assert.equal(spring!.startAt.toISOString(), '2026-03-29T08:00:00.000Z'); // 10:00 CEST
  const [autumn] = await claim({ kind: 'ticket', ticketId: tk.id, startAt: new Date('2026-10-25T09:00:00Z'), quantity: 1 });
  assert.equal(autumn!.startAt.toISOString(), '2026-10-25T09:00:00.000Z'); // 10:00 CET
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: new Date('2026-10-25T08:00:00Z'), quantity: 1 }), 'VALIDATION_FAILED'); // 09:00 CET: before first entry
});

test('holds stop counting when they expire; release is exactly once; confirm refuses expired items', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 4 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const at = zonedInstant('2026-03-20', 600, Z);
  const h = await holder(tk.id);
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 4 }, { holder: h, expiresAt: new Date(t.clock.now().getTime() + 60_000) });
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 1 }), 'SLOT_SOLD_OUT');
  t.clock.advanceMinutes(2);
  const h2 = await holder(tk.id);
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 4 }, { holder: h2, expiresAt: new Date(t.clock.now().getTime() + 60_000) });
  // Converting the hold into a claim: released first, then re-claimed under the same lock.
  const h3 = await holder(tk.id);
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 1 }, { holder: h3 }), 'SLOT_SOLD_OUT');
  await db.transaction((tx) =>
    claimCapacity(tx, ctx, [{ claim: { kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 4 }, holder: h3, expiresAt: null }], {
      releaseReservationIds: [(h2 as { reservationId: number }).reservationId],
    }),
  );
  assert.equal(await db.transaction((tx) => releaseCapacity(tx, ctx, { reservationIds: [(h2 as { reservationId: number }).reservationId] })), 0);
});

test('event dates: seats_max, max_per_registration, past dates, seats booked', async () => {
  const ev = await f.event(db, { museumId: m.id });
  const d = await f.eventDate(db, { eventId: ev.id, startAt: new Date('2026-04-01T16:00:00Z'), seatsMax: 5, maxPerRegistration: 3 });
  const old = await f.eventDate(db, { eventId: ev.id, startAt: new Date('2026-02-01T16:00:00Z') });
  await rejects(claim({ kind: 'event_date', eventDateId: d.id, quantity: 4 }), 'VALIDATION_FAILED');
  await rejects(claim({ kind: 'event_date', eventDateId: old.id, quantity: 1 }), 'DATE_IN_PAST');
  await claim({ kind: 'event_date', eventDateId: d.id, quantity: 3 });
  await rejects(claim({ kind: 'event_date', eventDateId: d.id, quantity: 3 }), 'SLOT_SOLD_OUT');
  await claim({ kind: 'event_date', eventDateId: d.id, quantity: 2 });
  const booked = await eventDateSeatsBooked(db, [d.id, old.id], t.clock.now());
  assert.deepEqual([...booked.entries()].sort(), [[d.id, 5], [old.id, 0]].sort());
});

test('tours: window/step, language, participants, max concurrent overlapping runs', async () => {
  const de = await f.language(db, { code: 'de' });
  const en = await f.language(db, { code: 'en' });
  const tour = await f.tour(db, { museumId: m.id, languageIds: [de.id], duration: 60, minPersons: 5, maxPersons: 20, maxConcurrent: 2, windowStart: 600, windowEnd: 900, step: 30 });
  const at = (min: number) => zonedInstant('2026-03-15', min, Z);
  const tc = (min: number, participants = 10, languageId = de.id): Claim => ({ kind: 'tour', tourId: tour.id, startAt: at(min), languageId, participants });
  await rejects(claim(tc(600, 10, en.id)), 'LANGUAGE_NOT_AVAILABLE');
  await rejects(claim(tc(600, 21)), 'QUANTITY_ABOVE_CAPACITY');
  await rejects(claim(tc(600, 4)), 'VALIDATION_FAILED');
  await rejects(claim(tc(615)), 'VALIDATION_FAILED');
  await rejects(claim(tc(930)), 'VALIDATION_FAILED');
  await claim(tc(600));
  await claim(tc(630));
  await rejects(claim(tc(630)), 'SLOT_SOLD_OUT'); // 10:30–11:30 overlaps both runs
  await claim(tc(660)); // 11:00–12:00 overlaps only the 10:30 run
  await rejects(claim(tc(600)), 'SLOT_SOLD_OUT');
});

test('confirm makes pending allocations permanent, and refuses (ORDER_EXPIRED) once they lapsed', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 5 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const at = zonedInstant('2026-03-25', 600, Z);
  const item = async () => {
    const now = t.clock.now();
    const [o] = await db
      .insert(orders)
      .values({ accountId: account, token: `o${Math.random()}`, status: 'pending', source: 'api', totalPriceCents: 0, currency: 'EUR', requestHash: 'x', createdAt: now, updatedAt: now })
      .returning();
    const [i] = await db
      .insert(orderItems)
      .values({ orderId: o!.id, type: 'Ticket', museumId: m.id, ticketId: tk.id, quantity: 2, startAt: at, unitPriceCents: 0, priceCents: 0, vatPct: 0, taxIncluded: true })
      .returning();
    return i!.id;
  };
  const soon = () => new Date(t.clock.now().getTime() + 10 * 60_000);
  const a = await item();
  const b = await item();
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 2 }, { holder: { orderItemId: a }, expiresAt: soon() });
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 2 }, { holder: { orderItemId: b }, expiresAt: soon() });
  await db.transaction((tx) => confirmCapacity(tx, ctx, [a]));
  t.clock.advanceMinutes(11);
  await rejects(db.transaction((tx) => confirmCapacity(tx, ctx, [b])), 'ORDER_EXPIRED');
  // a is permanent: 3 left after the clock moved past every expiry.
  await rejects(claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 4 }), 'SLOT_SOLD_OUT');
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 3 });
  assert.equal(await db.transaction((tx) => releaseCapacity(tx, ctx, { orderItemIds: [a] })), 1);
  await claim({ kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 2 });
});

test('lock timeout becomes CAPACITY_BUSY with retryAfter 1', async () => {
  const q = await f.quota(db, { museumId: m.id, capacity: 5 });
  const tk = await f.ticket(db, { museumId: m.id, quotaIds: [q.id] });
  const at = zonedInstant('2026-03-26', 600, Z);
  const quick = { ...ctx, config: { ...ctx.config, lockTimeoutMs: 50 } };
  const h = await holder(tk.id);
  let release: (() => void) | undefined;
  const blocker = db.transaction(async (tx) => {
    await claimCapacity(tx, ctx, [{ claim: { kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 1 }, holder: h, expiresAt: null }]);
    await new Promise<void>((r) => (release = r));
  });
  // Wait until the blocker holds the slot's lock (it parks right after its claim).
  while (!release) await new Promise((r) => setTimeout(r, 5));
  const h2 = await holder(tk.id);
  await assert.rejects(
    db.transaction((tx) => claimCapacity(tx, quick, [{ claim: { kind: 'ticket', ticketId: tk.id, startAt: at, quantity: 1 }, holder: h2, expiresAt: null }])),
    (e: unknown) => e instanceof DomainError && e.code === 'CAPACITY_BUSY' && e.retryAfter === 1,
  );
  release!();
  await blocker;
});
