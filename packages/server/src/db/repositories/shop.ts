// The shop's account row (migration 0039).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { shopAccount } from '../schema/shop.ts';

export async function shopAccountRow(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ id: shopAccount.accountId }).from(shopAccount).where(eq(shopAccount.singleton, true));
  return row?.id ?? null;
}
