// Partner accounts and their tokens for the console: the accounts verbs (domain/accounts) behind
// the console's museum scope (scope.ts). Clear tokens are returned by create/rotate only, for the
// page to show once; listings carry the last 4 characters.
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { createToken, type CreatedToken, type CreateTokenInput } from '../accounts/createToken.ts';
import { listTokens, type TokenListing } from '../accounts/listTokens.ts';
import { revokeToken } from '../accounts/revokeToken.ts';
import { rotateToken } from '../accounts/rotateToken.ts';
import { accountInScope, partnerAccount, tokenAccount } from './scope.ts';

export interface PartnerListing {
  accountId: number;
  name: string;
  class: string;
  museumIds: number[];
  rights: string[];
  tokens: TokenListing[];
}

/** Accounts with tokens in the caller's scope, each with its tokens (newest first). */
export async function listPartners(ctx: Ctx): Promise<PartnerListing[]> {
  const byAccount = new Map<number, PartnerListing>();
  for (const t of await listTokens(ctx)) {
    if (!accountInScope(ctx.principal, t.museumIds)) continue;
    const p = byAccount.get(t.accountId) ?? { accountId: t.accountId, name: t.name, class: t.class, museumIds: t.museumIds, rights: t.rights, tokens: [] };
    p.tokens.unshift(t);
    byAccount.set(t.accountId, p);
  }
  return [...byAccount.values()].sort((a, b) => a.name.localeCompare(b.name) || a.accountId - b.accountId);
}

/** A new account with its first token; a scoped admin must confine it to museums of their own. */
export async function createPartner(ctx: Ctx, input: CreateTokenInput): Promise<CreatedToken> {
  const museums = input.museumIds ?? [];
  if (!accountInScope(ctx.principal, museums)) {
    throw invalid('account could not be created', [`museums must be within your own: ${ctx.principal.museumIds.join(', ')}`]);
  }
  return createToken(ctx, input);
}

export async function rotatePartnerToken(ctx: Ctx, input: { tokenId: number; overlapSeconds?: number }) {
  const account = await tokenAccount(ctx, input.tokenId);
  return { account, ...(await rotateToken(ctx, input)) };
}

export async function revokePartnerToken(ctx: Ctx, input: { tokenId: number }) {
  const account = await tokenAccount(ctx, input.tokenId);
  await revokeToken(ctx, input);
  return { account };
}

/** One account in the caller's scope with its tokens (NOT_FOUND otherwise). */
export async function partnerDetail(ctx: Ctx, accountId: number) {
  const account = await partnerAccount(ctx, accountId);
  const tokens = (await listTokens(ctx)).filter((t) => t.accountId === account.id).reverse();
  return { account, tokens };
}
