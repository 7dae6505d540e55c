// Creates a partner account with its first token (CLI `atrium token create`). The clear token is
// returned once and never stored.
import { insertAccount, insertToken } from '../../db/repositories/accounts.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { parseRights, type AccessClass } from '../principal.ts';
import { instanceId } from './internal.ts';
import { hashToken, last4, newToken } from './tokens.ts';

export interface CreateTokenInput {
  class: AccessClass;
  name: string;
  museumIds?: number[];
  rights?: string[];
  rateLimitPerMinute?: number | null;
  /** Lifetime in seconds; absent = no expiry. */
  expiresIn?: number;
}

export interface CreatedToken {
  token: string;
  tokenId: number;
  accountId: number;
  last4: string;
  expiresAt: Date | null;
}

export async function createToken(ctx: Pick<Ctx, 'db' | 'clock'>, input: CreateTokenInput): Promise<CreatedToken> {
  if (!['public', 'user', 'reseller', 'entry'].includes(input.class)) {
    throw invalid(`class must be public, user, reseller or entry, got "${input.class}"`);
  }
  const name = input.name?.trim();
  if (!name) throw invalid('name must not be blank');
  const museumIds = input.museumIds ?? [];
  if (museumIds.some((m) => !Number.isInteger(m) || m < 1)) throw invalid('museum ids must be positive integers');
  // A scanner stands at one museum's door: an unscoped entry token would admit at every museum.
  if (input.class === 'entry' && museumIds.length === 0) throw invalid('entry tokens need --museums');
  let rights: string[] = [];
  if (input.class === 'user') {
    try {
      rights = parseRights(input.rights ?? []);
    } catch (e) {
      throw invalid((e as Error).message);
    }
  } else if (input.rights && input.rights.length > 0) {
    throw invalid('rights apply to user tokens only');
  }
  const rateLimit = input.class === 'reseller' ? (input.rateLimitPerMinute ?? null) : null;
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1)) {
    throw invalid('rate limit must be a positive number of requests per minute');
  }
  if (input.expiresIn !== undefined && (!Number.isFinite(input.expiresIn) || input.expiresIn <= 0)) {
    throw invalid('expiry must be in the future');
  }
  const now = ctx.clock.now();
  const expiresAt = input.expiresIn !== undefined ? new Date(now.getTime() + input.expiresIn * 1000) : null;

  return transaction(ctx.db, async (tx) => {
    const token = newToken(await instanceId(tx));
    const accountId = await insertAccount(tx, { class: input.class, name, museumIds, rights, rateLimitPerMinute: rateLimit, createdAt: now });
    const tokenId = await insertToken(tx, { accountId, tokenHash: hashToken(token), last4: last4(token), createdAt: now, expiresAt });
    return { token, tokenId, accountId, last4: last4(token), expiresAt };
  });
}
