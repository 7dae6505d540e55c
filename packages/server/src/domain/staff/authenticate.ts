// Console sign-in. Every failure gives the same answer ("email or password is wrong"), unknown
// emails spend the time of a real verification, and attempts are counted in PostgreSQL (so the
// limits hold across nodes): from a browser not trusted for the account (devices.ts), more than
// ACCOUNT_LIMIT failures for one email or ADDRESS_LIMIT for one client address within WINDOW
// refuse further tries until the window has passed. A trusted browser is refused only after its
// own DEVICE_LIMIT failures, so nobody else's failures lock out the right password there. A
// throttled attempt is not verified at all (no timing signal either).
import type { DbOrTx } from '../../db/client.ts';
import { deleteSignInAttemptsBefore, failedSignIns, insertSignInAttempt, staffUserByEmail } from '../../db/repositories/staff.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { purgeDevices, trustedDevice } from './devices.ts';
import { verifyDummy, verifyPassword } from './password.ts';
import type { StaffRole } from './permissions.ts';
import type { StaffIdentity } from './principal.ts';

type Base = { db: DbOrTx; clock: Clock };
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;
export const WINDOW_MS = 15 * 60_000;

export const wrongCredentials = () => new DomainError('UNAUTHORIZED', 'email or password is wrong');
export const throttled = () =>
  new DomainError('RATE_LIMITED', 'too many failed sign-ins; try again in 15 minutes', { retryAfter: WINDOW_MS / 1000 });

async function failures(ctx: Base, column: 'email' | 'address', value: string, since: Date): Promise<number> {
  return failedSignIns(ctx.db, column, value, since);
}

export async function authenticate(ctx: Base, input: { email: string; password: string; address: string; device?: string | undefined }): Promise<StaffIdentity> {
  const email = String(input.email ?? '').trim().toLowerCase().slice(0, 254);
  const password = String(input.password ?? '').slice(0, 256);
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_MS);
  const user = await staffUserByEmail(ctx.db, email);
  const device = await trustedDevice(ctx, input.device, user?.id, email, since);
  if (!device && ((await failures(ctx, 'email', email, since)) >= ACCOUNT_LIMIT || (await failures(ctx, 'address', input.address, since)) >= ADDRESS_LIMIT)) {
    throw throttled();
  }
  let ok = false;
  if (user) ok = (await verifyPassword(user.passwordHash, password)) && user.disabledAt === null;
  else await verifyDummy(password);
  await insertSignInAttempt(ctx.db, { email, address: input.address, succeeded: ok, at: now, device });
  if (!ok || !user) throw wrongCredentials();
  return { id: user.id, email: user.email, role: user.role as StaffRole, museumIds: user.museumIds, locale: user.locale as 'de' | 'en' };
}

/** Removes attempts older than the window and devices unused for a year (housekeeping). */
export async function purgeLoginAttempts(ctx: Base): Promise<void> {
  await purgeDevices(ctx);
  await deleteSignInAttemptsBefore(ctx.db, new Date(ctx.clock.now().getTime() - WINDOW_MS));
}
