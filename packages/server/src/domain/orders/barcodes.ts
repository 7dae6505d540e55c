// Admission barcodes. Scheme (documented for scanner integrators): 12 random decimal digits, a
// dash, and one check digit computed like EAN-13 (weights 1,3,1,3… from the left, check digit =
// (10 - sum mod 10) mod 10), e.g. "403421029763-5" as go~mus prints them. The check digit lets a
// scanner or a lookup reject a mistyped code before touching the database. 10^12 random values
// make collisions rare; the unique index on barcodes.code makes them impossible, and the insert
// retries colliding codes with fresh random digits.
import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/client.ts';
import { insertBarcodes, voidBarcodesOfItems } from '../../db/repositories/orders.ts';

export function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

/**
 * Barcodes an item gets when finalized: one per admission (each ticket or event seat), one per
 * tour booking (a group), none for gift cards and vouchers sold (their codes are their own).
 */
export function admissionsOf(type: string, quantity: number): number {
  if (type === 'GiftCard' || type === 'Voucher') return 0;
  return type === 'Tour' ? 1 : quantity;
}

export function newBarcode(): string {
  // Two draws of 6 digits each: randomInt's range is limited to < 2^48.
  const digits = String(randomInt(0, 1_000_000)).padStart(6, '0') + String(randomInt(0, 1_000_000)).padStart(6, '0');
  return `${digits}-${checkDigit(digits)}`;
}

/** The canonical form of a scanned or typed code ("403421029763-5", "4034210297635"), or null. */
export function normaliseBarcode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(digits)) return null;
  const body = digits.slice(0, 12);
  return checkDigit(body) === Number(digits[12]) ? `${body}-${digits[12]}` : null;
}

/**
 * Inserts `count` fresh barcodes per order item. ON CONFLICT DO NOTHING keeps the transaction
 * alive on a collision (a unique violation would abort it); the missing ones are drawn again.
 */
export async function issueBarcodes(tx: Tx, now: Date, wanted: Array<{ orderItemId: number; count: number }>) {
  let pending = wanted.flatMap((w) => Array.from({ length: w.count }, () => w.orderItemId));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 10) throw new Error('could not draw unique barcodes');
    const rows = pending.map((orderItemId) => ({ orderItemId, code: newBarcode(), status: 'valid', createdAt: now }));
    const ok = new Set(await insertBarcodes(tx, rows));
    // Codes drawn twice within one batch insert only once; they are retried like collisions.
    const seen = new Set<string>();
    pending = rows
      .filter((r) => {
        const placed = ok.has(r.code) && !seen.has(r.code);
        if (placed) seen.add(r.code);
        return !placed;
      })
      .map((r) => r.orderItemId);
  }
}

/** Voids the barcodes of cancelled items. */
export async function voidBarcodes(tx: Tx, orderItemIds: number[]) {
  if (orderItemIds.length === 0) return;
  await voidBarcodesOfItems(tx, orderItemIds);
}
