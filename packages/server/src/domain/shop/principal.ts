// The visitor shop sells through its own account (migration 0039) as a 'shop' principal: it sees
// and books what the 'shop' sales channel offers (catalog/visibility.ts), at the public price,
// and reaches only its own account's reservations, orders and customers. Per-account hold limits
// do not apply to it (every visitor shares the account); the shop limits each visitor instead.
import type { DbOrTx } from '../../db/client.ts';
import { shopAccountRow } from '../../db/repositories/shop.ts';
import type { AccountPrincipal } from '../principal.ts';

const cached = new WeakMap<object, number>();

export async function shopAccountId(db: DbOrTx): Promise<number> {
  const have = cached.get(db);
  if (have !== undefined) return have;
  const id = await shopAccountRow(db);
  if (id === null) throw new Error('the shop account is missing; run `atrium migrate`');
  cached.set(db, id);
  return id;
}

export function shopPrincipal(accountId: number): AccountPrincipal {
  return {
    kind: 'account',
    accountId,
    accountName: 'shop',
    access: 'shop',
    museumIds: [],
    rights: new Set(),
    tokenId: 0,
    tokenLast4: '',
    rateLimitPerMinute: null,
  };
}
