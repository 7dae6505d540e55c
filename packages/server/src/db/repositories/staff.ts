// Statements of the staff console: staff users, sign-in attempts, sessions, the console's
// account, display titles, and the day sheet's counts.
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import type { Translated } from '../schema/catalog.ts';
import { museums, orders, staffConsole, staffLoginAttempts, staffSessions, staffUsers, tickets, tours } from '../schema/index.ts';

export type StaffUserRow = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

// Staff users

/** The staff user with this email, compared case-insensitively. */
export async function staffUserByEmail(db: DbOrTx, email: string): Promise<StaffUserRow | null> {
  const [row] = await db.select().from(staffUsers).where(sql`lower(${staffUsers.email}) = lower(${email})`);
  return row ?? null;
}

export async function staffUserById(db: DbOrTx, id: number): Promise<StaffUserRow | null> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id));
  return row ?? null;
}

export async function allStaffUsers(db: DbOrTx): Promise<StaffUserRow[]> {
  return db.select().from(staffUsers).orderBy(asc(staffUsers.id));
}

export async function countStaffUserRows(db: DbOrTx): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(staffUsers);
  return r?.n ?? 0;
}

export async function insertStaffUser(db: DbOrTx, values: typeof staffUsers.$inferInsert): Promise<StaffUserRow> {
  const [row] = await db.insert(staffUsers).values(values).returning();
  return row!;
}

export async function updateStaffUser(db: DbOrTx, id: number, changes: Partial<typeof staffUsers.$inferInsert>): Promise<StaffUserRow> {
  const [row] = await db.update(staffUsers).set(changes).where(eq(staffUsers.id, id)).returning();
  return row!;
}

/** Disables a user; a user disabled before keeps its first disabled_at. */
export async function disableStaffUserRow(db: DbOrTx, id: number, now: Date): Promise<StaffUserRow> {
  const [row] = await db.update(staffUsers).set({ disabledAt: sql`coalesce(${staffUsers.disabledAt}, ${now})` }).where(eq(staffUsers.id, id)).returning();
  return row!;
}

/** Enables a disabled user again. */
export async function enableStaffUserRow(db: DbOrTx, id: number): Promise<StaffUserRow> {
  const [row] = await db.update(staffUsers).set({ disabledAt: null }).where(eq(staffUsers.id, id)).returning();
  return row!;
}

// Sign-in attempts

/** Failed sign-ins since `since` for one email or one client address. */
export async function failedSignIns(db: DbOrTx, by: 'email' | 'address', value: string, since: Date): Promise<number> {
  const col = by === 'email' ? staffLoginAttempts.email : staffLoginAttempts.address;
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffLoginAttempts)
    .where(and(eq(col, value), eq(staffLoginAttempts.succeeded, false), gt(staffLoginAttempts.at, since)));
  return r?.n ?? 0;
}

export async function insertSignInAttempt(db: DbOrTx, values: typeof staffLoginAttempts.$inferInsert): Promise<void> {
  await db.insert(staffLoginAttempts).values(values);
}

export async function deleteSignInAttemptsBefore(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(staffLoginAttempts).where(sql`${staffLoginAttempts.at} < ${before}`);
}

// Sessions

export async function insertSession(db: DbOrTx, values: typeof staffSessions.$inferInsert): Promise<void> {
  await db.insert(staffSessions).values(values);
}

/** A session that is not revoked, with its user if that user is not disabled. */
export async function liveSessionWithUser(db: DbOrTx, idHash: string): Promise<{ s: StaffSessionRow; u: StaffUserRow } | null> {
  const [row] = await db
    .select({ s: staffSessions, u: staffUsers })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
    .where(and(eq(staffSessions.idHash, idHash), isNull(staffSessions.revokedAt), isNull(staffUsers.disabledAt)));
  return row ?? null;
}

export async function touchSession(db: DbOrTx, idHash: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.idHash, idHash));
}

export async function revokeSessionRow(db: DbOrTx, idHash: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ revokedAt: now }).where(and(eq(staffSessions.idHash, idHash), isNull(staffSessions.revokedAt)));
}

/** Revokes every live session of a user; returns how many. */
export async function revokeSessionsOfUser(db: DbOrTx, staffUserId: number, now: Date): Promise<number> {
  const r = await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.staffUserId, staffUserId), isNull(staffSessions.revokedAt)))
    .returning({ h: staffSessions.idHash });
  return r.length;
}

export async function deleteSessionsEndedBefore(db: DbOrTx, cutoff: Date): Promise<void> {
  await db.delete(staffSessions).where(sql`${staffSessions.expiresAt} < ${cutoff} or ${staffSessions.revokedAt} < ${cutoff}`);
}

/** The console's account id (one row, written by the migration), or null before it ran. */
export async function consoleAccountRow(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ id: staffConsole.accountId }).from(staffConsole).where(eq(staffConsole.singleton, true));
  return row?.id ?? null;
}

// Titles

export async function ticketTitleRows(db: DbOrTx, ids: number[]): Promise<Array<{ id: number; title: Translated }>> {
  return db.select({ id: tickets.id, title: tickets.title }).from(tickets).where(inArray(tickets.id, ids));
}

export async function tourTitleRows(db: DbOrTx, ids: number[]): Promise<Array<{ id: number; title: Translated }>> {
  return db.select({ id: tours.id, title: tours.title }).from(tours).where(inArray(tours.id, ids));
}

export async function museumTitleZoneRows(db: DbOrTx): Promise<Array<{ id: number; title: Translated; zone: string }>> {
  return db.select({ id: museums.id, title: museums.title, zone: museums.timeZone }).from(museums);
}

// The day sheet: sold (active items of finalized orders) and checked in (valid entry scans)

export async function eventDatesOfDay(db: DbOrTx, museumId: number, from: Date, to: Date) {
  return (await db.execute<{ id: number; title: Record<string, string>; start_at: string; seats_max: number }>(sql`
    select d.id, e.title, d.start_at, d.seats_max from event_dates d join events e on e.id = d.event_id
     where e.museum_id = ${museumId} and d.start_at >= ${from} and d.start_at < ${to} order by d.start_at, d.id limit 200`)).rows;
}

export async function eventDateSeatsSold(db: DbOrTx, eventDateIds: number[]): Promise<Array<{ id: number; n: number }>> {
  return (await db.execute<{ id: number; n: number }>(sql`
    select oi.event_date_id as id, sum(oi.quantity)::int as n from order_items oi join orders o on o.id = oi.order_id
     where oi.event_date_id = any(${`{${eventDateIds.join(',')}}`}::int[]) and oi.status = 'active' and o.status = 'finalized' group by 1`)).rows;
}

export async function eventDatePeopleIn(db: DbOrTx, eventDateIds: number[]): Promise<Array<{ id: number; n: number }>> {
  return (await db.execute<{ id: number; n: number }>(sql`
    select oi.event_date_id as id, sum(s.people_count)::int as n from scans s join order_items oi on oi.id = s.order_item_id
     where oi.event_date_id = any(${`{${eventDateIds.join(',')}}`}::int[]) and s.result = 'valid' and s.direction = 'entry' group by 1`)).rows;
}

export type TicketSlotCount = { ticket_id: number; start_at: Date; n: number };

/** Sold places per ticket and slot start in [from, to). */
export async function ticketSlotsSold(db: DbOrTx, ticketIds: number[], from: Date, to: Date): Promise<TicketSlotCount[]> {
  const r = await db.execute<TicketSlotCount>(sql`
    select oi.ticket_id, oi.start_at, sum(oi.quantity)::int as n from order_items oi join orders o on o.id = oi.order_id
     where oi.ticket_id = any(${`{${ticketIds.join(',')}}`}::int[]) and oi.start_at >= ${from} and oi.start_at < ${to}
       and oi.status = 'active' and o.status = 'finalized' group by 1, 2`);
  return r.rows.map((x) => ({ ...x, start_at: new Date(x.start_at) }));
}

/** People admitted per ticket and slot start in [from, to). */
export async function ticketSlotsPeopleIn(db: DbOrTx, ticketIds: number[], from: Date, to: Date): Promise<TicketSlotCount[]> {
  const r = await db.execute<TicketSlotCount>(sql`
    select oi.ticket_id, oi.start_at, sum(s.people_count)::int as n from scans s join order_items oi on oi.id = s.order_item_id
     where oi.ticket_id = any(${`{${ticketIds.join(',')}}`}::int[]) and oi.start_at >= ${from} and oi.start_at < ${to}
       and s.result = 'valid' and s.direction = 'entry' group by 1, 2`);
  return r.rows.map((x) => ({ ...x, start_at: new Date(x.start_at) }));
}

/** Sets how a desk sale was paid and who sold it. */
export async function recordDeskSale(db: DbOrTx, orderId: number, paymentMethod: string, staffUserId: number): Promise<void> {
  await db.update(orders).set({ paymentMethod, staffUserId }).where(eq(orders.id, orderId));
}
