// Device cookies: the sign-in lockout must not refuse the right password because of someone
// else's failures. A browser that signed in to an account successfully gets a long-lived random
// cookie; its hash is stored with the account. Presented again, the device is trusted for that
// account: it skips the account lockout and the per-address limit (authenticate.ts), which keep
// applying to every other browser. A trusted device has a lockout of its own (DEVICE_LIMIT
// failures in the window), so a stolen cookie is not a way around the throttle either.
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { deleteDevicesUnusedSince, deviceFailures, deviceKnown, upsertDevice } from '../../db/repositories/staffDevices.ts';
import type { Clock } from '../clock.ts';

type Base = { db: DbOrTx; clock: Clock };
export const DEVICE_MAX_AGE_MS = 365 * 24 * 60 * 60_000;
export const DEVICE_LIMIT = 5;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The device's hash when this cookie was issued to this account within the last year and has not
 * failed DEVICE_LIMIT times since `since`; null otherwise (an unknown browser).
 */
export async function trustedDevice(ctx: Base, token: string | undefined, userId: number | undefined, email: string, since: Date): Promise<string | null> {
  if (!token || !TOKEN.test(token)) return null;
  const idHash = hashOf(token);
  // An unknown email costs the same lookup as a known one (no timing signal).
  const user = userId ?? -1;
  const oldest = new Date(ctx.clock.now().getTime() - DEVICE_MAX_AGE_MS);
  if (!(await deviceKnown(ctx.db, idHash, user, oldest))) return null;
  return (await deviceFailures(ctx.db, idHash, email, since)) < DEVICE_LIMIT ? idHash : null;
}

/** After a successful sign-in: trusts this browser for the account; returns the cookie to set. */
export async function rememberDevice(ctx: Base, token: string | undefined, userId: number): Promise<string> {
  const value = token && TOKEN.test(token) ? token : randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await upsertDevice(ctx.db, hashOf(value), userId, now);
  return value;
}

/** Forgets devices not used to sign in for a year (housekeeping). */
export async function purgeDevices(ctx: Base): Promise<void> {
  await deleteDevicesUnusedSince(ctx.db, new Date(ctx.clock.now().getTime() - DEVICE_MAX_AGE_MS));
}
