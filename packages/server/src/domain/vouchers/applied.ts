// What a code did to an order's items, and the errors a refused code answers (shared by promo
// codes and single-purpose vouchers, on orders and reservations).
import type { PromoCodeRow } from '../../db/repositories/promoCodes.ts';
import type { VoucherRow } from '../../db/repositories/singlePurposeVouchers.ts';
import { DomainError } from '../errors.ts';

export interface AppliedCode {
  code: PromoCodeRow | null;
  voucher: VoucherRow | null;
  /** As shown to people: the promo code, or "…K7QZ" for a voucher (its code is a secret). */
  label: string;
  discountCents: number;
  /** Discount per item, by the item's position in the request. */
  parts: Array<{ index: number; cents: number }>;
}

export type CodeErrorCode = 'CODE_INVALID' | 'CODE_EXHAUSTED' | 'CODE_EXPIRED' | 'CODE_NOT_APPLICABLE' | 'VOUCHER_WRONG_TICKET';

export const codeError = (code: CodeErrorCode, msg: string) => new DomainError(code, msg);

export const voucherLabel = (last4: string) => `…${last4}`;

