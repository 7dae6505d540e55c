// Server-side console sessions in PostgreSQL, so any node answers any request. The cookie holds
// 32 random bytes; only their SHA-256 is stored. A session ends after IDLE without a request or
// ABSOLUTE after sign-in, whichever comes first; last_seen_at is written at most once a minute.
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import {
  deleteSessionsEndedBefore, insertSession, liveSessionWithUser, revokeSessionRow, revokeSessionsOfUser, touchSession,
} from '../../db/repositories/staff.ts';
import type { Clock } from '../clock.ts';
import type { StaffRole } from './permissions.ts';
import type { StaffIdentity } from './principal.ts';

type Base = { db: DbOrTx; clock: Clock };
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
const TOUCH_EVERY_MS = 60_000;

export const sessionHash = (id: string) => createHash('sha256').update(id).digest('hex');

export async function createSession(ctx: Base, staffUserId: number): Promise<{ id: string; csrfToken: string; expiresAt: Date }> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  await insertSession(ctx.db, { idHash: sessionHash(id), staffUserId, csrfToken, createdAt: now, lastSeenAt: now, expiresAt });
  return { id, csrfToken, expiresAt };
}

export interface ResolvedSession {
  idHash: string;
  csrfToken: string;
  user: StaffIdentity;
}

/** The live session for a cookie value, or null (unknown, expired, revoked, user disabled). */
export async function resolveSession(ctx: Base, id: string): Promise<ResolvedSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
  const now = ctx.clock.now();
  const idHash = sessionHash(id);
  const row = await liveSessionWithUser(ctx.db, idHash);
  if (!row) return null;
  if (row.s.expiresAt <= now || row.s.lastSeenAt.getTime() + SESSION_IDLE_MS <= now.getTime()) return null;
  if (now.getTime() - row.s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(ctx.db, idHash, now);
  }
  const u = row.u;
  return {
    idHash,
    csrfToken: row.s.csrfToken,
    user: { id: u.id, email: u.email, role: u.role as StaffRole, museumIds: u.museumIds, locale: u.locale as 'de' | 'en' },
  };
}

export async function revokeSession(ctx: Base, idHash: string): Promise<void> {
  await revokeSessionRow(ctx.db, idHash, ctx.clock.now());
}

/** "Sign out everywhere": every session of the user ends, on every node at once. */
export async function revokeAllSessions(ctx: Base, staffUserId: number): Promise<number> {
  return revokeSessionsOfUser(ctx.db, staffUserId, ctx.clock.now());
}

/** Removes sessions ended more than a day ago (housekeeping; callable from a job). */
export async function purgeSessions(ctx: Base): Promise<void> {
  const cutoff = new Date(ctx.clock.now().getTime() - 24 * 60 * 60_000);
  await deleteSessionsEndedBefore(ctx.db, cutoff);
}
