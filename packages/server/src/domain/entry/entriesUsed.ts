// Entries used per order item (the sum over its barcodes' entry states), for order views.
import type { DbOrTx } from '../../db/client.ts';
import { entriesUsedOfItems } from '../../db/repositories/entry.ts';

export async function entriesUsedByItem(db: DbOrTx, itemIds: number[]): Promise<Map<number, number>> {
  if (itemIds.length === 0) return new Map();
  return entriesUsedOfItems(db, itemIds);
}
