// Trusted sign-in devices of staff accounts (domain/staff/devices.ts holds the rule): a device is
// known by the SHA-256 of its cookie, per account, with when it last signed in.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { staffDevices, staffLoginAttempts } from '../schema/index.ts';

/** Whether this device hash signed in to this account after `oldest`. */
export async function deviceKnown(db: DbOrTx, idHash: string, staffUserId: number, oldest: Date): Promise<boolean> {
  const [known] = await db
    .select({ n: sql<number>`1` })
    .from(staffDevices)
    .where(and(eq(staffDevices.idHash, idHash), eq(staffDevices.staffUserId, staffUserId), gt(staffDevices.lastUsedAt, oldest)));
  return known !== undefined;
}

/** Failed sign-ins of this device for this email since `since`. */
export async function deviceFailures(db: DbOrTx, idHash: string, email: string, since: Date): Promise<number> {
  const [failed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffLoginAttempts)
    .where(and(eq(staffLoginAttempts.device, idHash), eq(staffLoginAttempts.email, email), eq(staffLoginAttempts.succeeded, false), gt(staffLoginAttempts.at, since)));
  return failed?.n ?? 0;
}

/** Records a successful sign-in of this device (first use, or refreshes its last use). */
export async function upsertDevice(db: DbOrTx, idHash: string, staffUserId: number, now: Date): Promise<void> {
  await db
    .insert(staffDevices)
    .values({ idHash, staffUserId, createdAt: now, lastUsedAt: now })
    .onConflictDoUpdate({ target: [staffDevices.idHash, staffDevices.staffUserId], set: { lastUsedAt: now } });
}

export async function deleteDevicesUnusedSince(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(staffDevices).where(lt(staffDevices.lastUsedAt, before));
}
