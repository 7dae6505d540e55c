// Entries used per order item (the sum over its barcodes' entry states), for order views.
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { entryStates } from '../../db/schema/index.ts';

export async function entriesUsedByItem(db: DbOrTx, itemIds: number[]): Promise<Map<number, number>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .select({ itemId: entryStates.orderItemId, used: sql<string>`sum(${entryStates.entriesUsed})` })
    .from(entryStates)
    .where(inArray(entryStates.orderItemId, itemIds))
    .groupBy(entryStates.orderItemId);
  return new Map(rows.map((r) => [Number(r.itemId), Number(r.used)]));
}
