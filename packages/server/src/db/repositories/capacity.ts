// Statements on capacity: the advisory locks of pools and accounts, the claim (SQL function
// capacity_claim, src/db/sql/capacity_claim.sql), releases, confirmations, the expiry sweep and
// the per-account hold totals. The rules that decide when to call them live in domain/capacity.
import { and, eq, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../client.ts';
import { capacityAllocations as ca, museums, tours } from '../schema/index.ts';

export type AllocationRow = typeof ca.$inferSelect;

/**
 * Takes the advisory transaction locks `keys` (already in the one ascending order), with the
 * lock wait bounded by `lockTimeout`. The timeout is set in the same round trip as the first
 * lock: the time under lock is what bounds throughput on a hot slot. One statement per key keeps
 * the acquisition order explicit (a single SELECT over a sorted set does not guarantee the order
 * of its calls).
 */
export async function lockKeys(tx: Tx, keys: bigint[], lockTimeout: string): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`SELECT set_config('lock_timeout', ${lockTimeout}, true), pg_advisory_xact_lock(${keys[0]!.toString()}::bigint)`);
  for (const k of keys.slice(1)) await tx.execute(sql`SELECT pg_advisory_xact_lock(${k.toString()}::bigint)`);
}

/** One advisory transaction lock, waiting as long as the connection's lock_timeout allows. */
export async function lockKey(tx: Tx, key: bigint): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`);
}

export type HeldRow = {
  resource: string;
  resource_id: number;
  slot_start: Date;
  held: number;
  /** The reservations ('r<id>') and pending orders ('o<id>') holding in this pool and slot. */
  holders: string[];
};

/**
 * An account's live holds and pending orders per pool and slot: temporary allocations
 * (expires_at set) not released and not expired at `now`, by reservation or by pending order
 * item; reservations whose token is in `exceptTokens` are left out.
 */
export async function heldByAccount(db: DbOrTx, accountId: number, now: Date, exceptTokens: string[]): Promise<HeldRow[]> {
  const res = await db.execute<HeldRow>(sql`
    select ca.resource, ca.resource_id, ca.slot_start, sum(ca.quantity)::int as held,
           array_agg(distinct coalesce('r' || ca.reservation_id::text, 'o' || oi.order_id::text)) as holders
      from capacity_allocations ca
      left join reservations r on r.id = ca.reservation_id
      left join order_items oi on oi.id = ca.order_item_id
      left join orders o on o.id = oi.order_id
     where ca.released_at is null and ca.expires_at is not null and ca.expires_at > ${now}
       and (r.account_id = ${accountId} or o.account_id = ${accountId})
       and (r.token is null or r.token not in (select jsonb_array_elements_text(${JSON.stringify(exceptTokens)}::jsonb)))
     group by ca.resource, ca.resource_id, ca.slot_start`);
  return res.rows;
}

/** The arguments of capacity_claim, one array per column of the demands. */
export interface ClaimCall {
  keys: string[];
  lockTimeout: string | null;
  now: string;
  release: number[];
  resource: string[];
  resourceId: number[];
  slotStart: string[];
  slotEnd: Array<string | null>;
  quantity: number[];
  capacity: number[];
  reservationId: Array<number | null>;
  orderItemId: Array<number | null>;
  expiresAt: Array<string | null>;
  raceWindowMs: number;
}

/** Calls capacity_claim; returns whether every demand fit (false: nothing was inserted). */
export async function claimSlots(tx: Tx, c: ClaimCall): Promise<boolean> {
  // Arrays go as one parameter each (sql.param): a bare array would become a list of parameters.
  const p = sql.param;
  const result = await tx.execute<{ failed: number }>(sql`select capacity_claim(
      ${p(c.keys)}::bigint[],
      ${c.lockTimeout}::text,
      ${c.now}::timestamptz,
      ${p(c.release)}::bigint[],
      ${p(c.resource)}::text[],
      ${p(c.resourceId)}::integer[],
      ${p(c.slotStart)}::timestamptz[],
      ${p(c.slotEnd)}::timestamptz[],
      ${p(c.quantity)}::integer[],
      ${p(c.capacity)}::integer[],
      ${p(c.reservationId)}::bigint[],
      ${p(c.orderItemId)}::bigint[],
      ${p(c.expiresAt)}::timestamptz[],
      ${c.raceWindowMs}::integer
    ) as failed`);
  return Number(result.rows[0]?.failed ?? 0) === 0;
}

/** The allocations of order items. */
export function allocationsOfItems(db: DbOrTx, orderItemIds: number[]): Promise<AllocationRow[]> {
  return db.select().from(ca).where(inArray(ca.orderItemId, orderItemIds));
}

/** The museums' zones of tours, by tour id. */
export async function tourZones(db: DbOrTx, tourIds: number[]): Promise<Map<number, string>> {
  const zones = new Map<number, string>();
  if (tourIds.length === 0) return zones;
  const zs = await db
    .select({ id: tours.id, zone: museums.timeZone })
    .from(tours)
    .innerJoin(museums, eq(museums.id, tours.museumId))
    .where(inArray(tours.id, tourIds));
  for (const z of zs) zones.set(z.id, z.zone);
  return zones;
}

/** Makes the allocations of order items permanent (a finalized order). */
export async function makeItemsPermanent(tx: Tx, orderItemIds: number[]): Promise<void> {
  await tx.update(ca).set({ expiresAt: null }).where(inArray(ca.orderItemId, orderItemIds));
}

/**
 * Deletes the lapsed allocations of order items: temporary rows released or expired at `now`.
 * They count for nothing (neither in the running totals nor as live rows), so no lock is needed.
 */
export async function dropLapsedItemAllocations(tx: Tx, orderItemIds: number[], now: Date): Promise<void> {
  if (orderItemIds.length === 0) return;
  await tx.delete(ca).where(and(inArray(ca.orderItemId, orderItemIds), isNotNull(ca.expiresAt), or(isNotNull(ca.releasedAt), lte(ca.expiresAt, now))));
}

export interface Owners {
  orderItemIds?: number[] | undefined;
  reservationIds?: number[] | undefined;
}

function liveOf(by: Owners): SQL | undefined {
  const owners = [
    by.orderItemIds?.length ? inArray(ca.orderItemId, by.orderItemIds) : undefined,
    by.reservationIds?.length ? inArray(ca.reservationId, by.reservationIds) : undefined,
  ].filter((c) => c !== undefined);
  return owners.length === 0 ? undefined : and(isNull(ca.releasedAt), or(...owners));
}

/** The unreleased permanent allocations of the owners that are in the running totals (no tours). */
export async function countedAllocationsOf(db: DbOrTx, by: Owners): Promise<Array<{ resource: string; resourceId: number; slotStart: Date }>> {
  const live = liveOf(by);
  if (!live) return [];
  return db
    .select({ resource: ca.resource, resourceId: ca.resourceId, slotStart: ca.slotStart })
    .from(ca)
    .where(and(live, isNull(ca.expiresAt), ne(ca.resource, 'tour')));
}

/** Marks the owners' unreleased allocations released at `at`; returns how many. */
export async function releaseAllocations(tx: Tx, by: Owners, at: Date): Promise<number> {
  const live = liveOf(by);
  if (!live) return 0;
  const rows = await tx.update(ca).set({ releasedAt: at }).where(live).returning({ id: ca.id });
  return rows.length;
}

/**
 * Marks up to `batch` temporary allocations that expired at or before `before` released (at
 * their expiry); returns how many. The conditions are on the row being updated, so a row a
 * finalize made permanent meanwhile is re-checked by PostgreSQL and left alone.
 */
export async function releaseExpiredBatch(db: DbOrTx, before: Date, batch: number): Promise<number> {
  const r = await db.execute(sql`
      update capacity_allocations set released_at = expires_at
       where released_at is null and expires_at is not null and expires_at <= ${before}
         and id in (select id from capacity_allocations
                     where released_at is null and expires_at is not null and expires_at <= ${before}
                     limit ${batch})`);
  return r.rowCount ?? 0;
}

/** The database server's clock now (clock_timestamp(): the time of the call, not of the transaction). */
export async function databaseNow(db: DbOrTx): Promise<Date> {
  const r = await db.execute<{ now: Date }>(sql`select clock_timestamp() as now`);
  return new Date(r.rows[0]!.now);
}
