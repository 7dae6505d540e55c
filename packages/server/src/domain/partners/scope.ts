// Which partner accounts a staff member may see and manage in the console (admins only, by
// role). Museum scope applies as everywhere: a scoped admin manages only accounts confined to
// museums of their own scope; an account that reaches every museum (empty scope) or a museum
// outside theirs is "not found" for them, so a scoped admin can never hand out wider access.
import { accountById, tokenById, type AccountRow } from '../../db/repositories/accounts.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import type { AccountPrincipal, Principal } from '../principal.ts';


export function accountInScope(p: Principal, accountMuseums: number[]): boolean {
  if (p.museumIds.length === 0) return true;
  return accountMuseums.length > 0 && accountMuseums.every((m) => p.museumIds.includes(m));
}

/** The account, when it exists and lies in the caller's scope; else NOT_FOUND. */
export async function partnerAccount(ctx: Ctx, accountId: number): Promise<AccountRow> {
  const a = Number.isSafeInteger(accountId) ? await accountById(ctx.db, accountId) : null;
  if (!a || !accountInScope(ctx.principal, a.museumIds)) throw notFound('account');
  return a;
}

/** The account of a token, checked the same way (a token id outside the scope is NOT_FOUND). */
export async function tokenAccount(ctx: Ctx, tokenId: number): Promise<AccountRow> {
  const t = Number.isSafeInteger(tokenId) ? await tokenById(ctx.db, tokenId) : null;
  if (!t) throw notFound('token');
  try {
    return await partnerAccount(ctx, t.accountId);
  } catch {
    throw notFound('token');
  }
}

/**
 * A context acting AS the partner account, for the webhook verbs (which manage the caller's own
 * endpoints): same db, clock and config, the account's own class, scope and rights.
 */
export function actingAs(ctx: Ctx, a: AccountRow): Ctx {
  const principal: AccountPrincipal = {
    kind: 'account', accountId: a.id, accountName: a.name, access: a.class as AccountPrincipal['access'],
    museumIds: a.museumIds, rights: new Set(a.rights), tokenId: 0, tokenLast4: '', rateLimitPerMinute: a.rateLimitPerMinute,
  };
  return { ...ctx, principal };
}
