// A signed-in staff user acts through the console's account (migration 0019) as a `user`
// principal whose rights come from the role and whose museum scope is the user's own: every
// existing domain verb then enforces scope and rights exactly as for an admin token.
import type { DbOrTx } from '../../db/client.ts';
import { consoleAccountRow } from '../../db/repositories/staff.ts';
import type { Ctx } from '../context.ts';
import type { AccountPrincipal } from '../principal.ts';
import { ROLE_RIGHTS, type StaffRole } from './permissions.ts';

export interface StaffIdentity {
  id: number;
  email: string;
  role: StaffRole;
  /** Empty = every museum. */
  museumIds: number[];
  locale: 'de' | 'en';
}

/** A domain context that knows which staff user acts (for the audit log). */
export interface StaffCtx extends Ctx {
  staff: StaffIdentity;
}

let cached: { db: object; id: number } | null = null;

/** The console's account id (one row, written by the migration). */
export async function consoleAccountId(db: DbOrTx): Promise<number> {
  if (cached && cached.db === db) return cached.id;
  const id = await consoleAccountRow(db);
  if (id === null) throw new Error('the staff console account is missing; run `atrium migrate`');
  cached = { db, id };
  return id;
}

export function staffPrincipal(user: StaffIdentity, accountId: number): AccountPrincipal {
  return {
    kind: 'account',
    accountId,
    accountName: `staff:${user.email}`,
    access: 'user',
    museumIds: [...user.museumIds],
    rights: new Set(ROLE_RIGHTS[user.role]),
    tokenId: 0,
    tokenLast4: '',
    rateLimitPerMinute: null,
  };
}
