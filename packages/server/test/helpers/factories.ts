// Catalogue factories for tests: each inserts one record with sensible defaults that a test
// overrides where it matters. They write through Drizzle directly (the setup, not the subject).
import { eventDates, events, exhibitions, languages, museums, quotaOverrides, quotas, ticketQuotas, tickets, tourLanguages, tours } from '../../src/db/schema/index.ts';
import type { Db } from '../../src/db/client.ts';

type Insert<T extends { $inferInsert: unknown }> = Partial<T['$inferInsert']>;

const WEEK: Array<[number, number] | null> = [
  [600, 1080],
  [600, 1080],
  [600, 1080],
  [600, 1200],
  [600, 1080],
  [600, 1080],
  [600, 1080],
];

export async function museum(db: Db, o: Insert<typeof museums> = {}) {
  const [row] = await db
    .insert(museums)
    .values({ title: { de: 'Testmuseum', en: 'Test Museum' }, timeZone: 'Europe/Berlin', openingHours: WEEK, ...o })
    .returning();
  return row!;
}

export async function exhibition(db: Db, o: Insert<typeof exhibitions> & { museumId: number }) {
  const [row] = await db.insert(exhibitions).values({ title: { de: 'Ausstellung', en: 'Exhibition' }, ...o }).returning();
  return row!;
}

export async function quota(db: Db, o: Insert<typeof quotas> & { museumId: number }) {
  const [row] = await db.insert(quotas).values({ name: 'Quota', kind: 'slot', capacity: 100, ...o }).returning();
  return row!;
}

export async function quotaOverride(db: Db, o: { quotaId: number; date: string; capacity: number | null }) {
  await db.insert(quotaOverrides).values(o);
}

/** A ticket; `quotaIds` links it to quotas. Defaults: time-slot 10:00–17:00 every 30 minutes. */
export async function ticket(db: Db, o: Insert<typeof tickets> & { museumId: number; quotaIds?: number[] }) {
  const { quotaIds = [], ...values } = o;
  const slot = (values.ticketType ?? 'time_slot') === 'time_slot';
  const [row] = await db
    .insert(tickets)
    .values({
      title: { de: 'Eintritt regulär', en: 'Admission regular' },
      ticketType: 'time_slot',
      priceCents: 1400,
      vatPct: 7,
      firstEntry: 600,
      lastEntry: 1020,
      entryDuration: slot ? 30 : null,
      ...values,
    })
    .returning();
  if (quotaIds.length) await db.insert(ticketQuotas).values(quotaIds.map((quotaId) => ({ ticketId: row!.id, quotaId })));
  return row!;
}

export async function language(db: Db, o: Insert<typeof languages> = {}) {
  const code = o.code ?? `l${Math.random().toString(36).slice(2, 7)}`;
  const [row] = await db.insert(languages).values({ name: code, ...o, code }).returning();
  return row!;
}

export async function event(db: Db, o: Insert<typeof events> & { museumId: number }) {
  const [row] = await db.insert(events).values({ title: { de: 'Führung', en: 'Guided tour' }, priceCents: 800, ...o }).returning();
  return row!;
}

export async function eventDate(db: Db, o: Insert<typeof eventDates> & { eventId: number; startAt: Date }) {
  const [row] = await db.insert(eventDates).values({ seatsMax: 20, ...o }).returning();
  return row!;
}

export async function tour(db: Db, o: Insert<typeof tours> & { museumId: number; languageIds?: number[] }) {
  const { languageIds = [], ...values } = o;
  const [row] = await db
    .insert(tours)
    .values({ title: { de: 'Gruppenführung', en: 'Group tour' }, duration: 60, maxPersons: 25, priceCents: 9000, ...values })
    .returning();
  if (languageIds.length) await db.insert(tourLanguages).values(languageIds.map((languageId) => ({ tourId: row!.id, languageId })));
  return row!;
}

/** 'YYYY-MM-DD' of the day `days` after `from` in the given zone. */
export function localDate(days: number, zone = 'Europe/Berlin', from = new Date()): string {
  const d = new Date(from.getTime() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
