// Set-password links (docs/console.md, "Staff users"): an admin's password reset, or a new user
// made in the console, gives the user a link /console/set-password/<token> instead of a password
// someone else has seen. The token is 32 bytes from the CSPRNG; only its SHA-256 is stored (as
// for sessions). A link works once, for PASSWORD_LINK_TTL_MS, and only the newest link of a user
// works. Setting the password applies the same policy as everywhere (password.ts), ends every
// session of the user and is audited with the user as the actor.
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { updateStaffUser } from '../../db/repositories/staff.ts';
import { livePasswordLinkUser, replacePasswordLink, usePasswordLink } from '../../db/repositories/staffPasswordLinks.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import type { Clock } from '../clock.ts';
import { DomainError, invalid } from '../errors.ts';
import { checkPassword, hashPassword, PASSWORD_PROBLEMS } from './password.ts';
import { revokeAllSessions } from './sessions.ts';

type Base = { db: DbOrTx; clock: Clock };
export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface PasswordLink {
  /** Shown and mailed once; never stored or logged. */
  token: string;
  expiresAt: Date;
}

export interface PasswordLinkUser {
  id: number;
  email: string;
  name: string;
  locale: string;
}

const linkHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** One answer for a used, expired, replaced, altered or unknown link (and a disabled user). */
export const linkNotValid = () => new DomainError('NOT_FOUND', 'this set-password link is not valid');

/** A new link for the user, in the caller's transaction; the user's link before stops working. */
export async function issuePasswordLink(ctx: Base, staffUserId: number): Promise<PasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_MS);
  await replacePasswordLink(ctx.db, { tokenHash: linkHash(token), staffUserId, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/** The user a live link belongs to, or null (the form is shown only for a live link). */
export async function passwordLinkUser(ctx: Base, token: string): Promise<PasswordLinkUser | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  return livePasswordLinkUser(ctx.db, linkHash(token), ctx.clock.now());
}

/**
 * Sets the user's password through a live link and uses the link up. Refused without a change:
 * a link that is not live (linkNotValid), two different entries, or a password the policy refuses.
 */
export async function setPasswordByLink(ctx: Base, token: string, input: { next: string; repeat: string }): Promise<PasswordLinkUser> {
  const user = await passwordLinkUser(ctx, token);
  if (!user) throw linkNotValid();
  if (input.next !== input.repeat) throw invalid(PASSWORD_PROBLEMS.mismatch);
  checkPassword(input.next);
  const passwordHash = await hashPassword(input.next);
  const now = ctx.clock.now();
  return transaction(ctx.db, async (tx) => {
    // The conditional update decides: of two uses at once, or a use racing a new reset, one wins.
    if ((await usePasswordLink(tx, linkHash(token), now)) !== user.id) throw linkNotValid();
    const row = await updateStaffUser(tx, user.id, { passwordHash, passwordChangedAt: now });
    if (row.disabledAt) throw linkNotValid();
    await revokeAllSessions({ db: tx, clock: ctx.clock }, user.id);
    await recordAudit({ db: tx, clock: ctx.clock }, { id: user.id, email: row.email }, { action: 'staff_user.set_password', entityType: 'staff_user', entityId: user.id });
    return user;
  });
}
