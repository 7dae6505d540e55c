// Every statement on single-purpose vouchers (migration 0049). A voucher is redeemed only through
// `redeemVoucher`: one conditional update that refuses (returns nothing) once it was redeemed or
// after its end, so two orders racing for one voucher never both get the admission free.
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { singlePurposeVouchers } from '../schema/index.ts';

export type VoucherRow = typeof singlePurposeVouchers.$inferSelect;

export async function insertVoucher(db: DbOrTx, row: typeof singlePurposeVouchers.$inferInsert): Promise<VoucherRow> {
  const [v] = await db.insert(singlePurposeVouchers).values(row).returning();
  return v!;
}

export async function voucherById(db: DbOrTx, id: number): Promise<VoucherRow | undefined> {
  const [v] = await db.select().from(singlePurposeVouchers).where(eq(singlePurposeVouchers.id, id));
  return v;
}

export async function voucherByHash(db: DbOrTx, hash: string): Promise<VoucherRow | undefined> {
  const [v] = await db.select().from(singlePurposeVouchers).where(eq(singlePurposeVouchers.codeHash, hash));
  return v;
}

export async function listVouchers(db: DbOrTx, opts: { limit: number; offset: number; last4?: string | undefined }): Promise<VoucherRow[]> {
  const q = db.select().from(singlePurposeVouchers);
  const filtered = opts.last4 ? q.where(eq(singlePurposeVouchers.codeLast4, opts.last4)) : q;
  return filtered.orderBy(desc(singlePurposeVouchers.id)).limit(opts.limit).offset(opts.offset);
}

/** Marks the voucher redeemed by the order while it is unredeemed, not void and valid; undefined otherwise. */
export async function redeemVoucher(db: DbOrTx, id: number, orderId: number, now: Date): Promise<VoucherRow | undefined> {
  const [v] = await db
    .update(singlePurposeVouchers)
    .set({ orderId, redeemedAt: now })
    .where(and(eq(singlePurposeVouchers.id, id), isNull(singlePurposeVouchers.orderId), isNull(singlePurposeVouchers.voidedAt), gt(singlePurposeVouchers.expiresAt, now)))
    .returning();
  return v;
}
