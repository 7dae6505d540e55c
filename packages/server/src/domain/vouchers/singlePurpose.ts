// Single-purpose vouchers (Einzweckgutscheine, docs/vouchers.md): one admission of a named
// ticket. Its price and VAT are those of the ticket at sale (the VAT is due then, unlike a gift
// card's); it is redeemed through an order's `codes` for that ticket in any free slot, at no
// charge (voucherApply.ts). The code is shown once, in the answer to the issue; the database
// keeps its SHA-256 and last four characters, as for gift cards.
import type { DbOrTx } from '../../db/client.ts';
import { insertVoucher, listVouchers as listRows, voucherById, type VoucherRow } from '../../db/repositories/singlePurposeVouchers.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { ticketById } from '../capacity/catalog.ts';
import type { Ctx } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { callerOf } from '../payments/internal.ts';
import { ticketPrice } from '../pricing/prices.ts';
import { sealSecret, sealingKey } from '../webhooks/secrets.ts';
import { addDays, isValidDate, isoInZone, zonedInstant } from '../time.ts';
import { codeHash, last4, newCode } from './code.ts';
import { defaultExpiry, requireStaff } from './giftCards.ts';

export interface VoucherInput {
  ticket_id: number;
  language?: string;
  recipient?: string;
  expires_on?: string;
}

export async function issueVoucher(ctx: Ctx, input: VoucherInput): Promise<{ voucher: VoucherRow; code: string }> {
  requireStaff(ctx, 'write');
  const errors: string[] = [];
  const ticket = await ticketById(ctx, ctx.db, input.ticket_id);
  if (!ticket) errors.push(`ticket_id: ticket ${input.ticket_id} not found`);
  const language = input.language ?? ctx.config.locales[0] ?? 'de';
  if (!ctx.config.locales.includes(language)) errors.push(`language must be one of ${ctx.config.locales.join(', ')}`);
  const now = ctx.clock.now();
  let expiresAt = defaultExpiry(now, ctx.config.zone);
  if (input.expires_on !== undefined) {
    expiresAt = isValidDate(input.expires_on) ? zonedInstant(addDays(input.expires_on, 1), 0, ctx.config.zone) : now;
    if (expiresAt <= now) errors.push('expires_on must be a future date YYYY-MM-DD');
  }
  if (errors.length || !ticket) throw invalid('voucher could not be saved', errors);
  const actor = callerOf(ctx);
  // One admission at the caller's price, by the one price calculation (as an order's Voucher line).
  return writeVoucher(ctx.db, ctx, actor, {
    ticketId: ticket.id, priceCents: ticketPrice(ctx.principal, ticket, 1), vatPct: ticket.vatPct, language, recipient: input.recipient ?? null, expiresAt,
  });
}

export interface VoucherToWrite {
  ticketId: number;
  priceCents: number;
  vatPct: number;
  language: string;
  recipient: string | null;
  expiresAt: Date;
  /** The order line that sold it: its code is kept sealed for the buyer's PDF. */
  orderItemId?: number;
}

/** The one way a voucher comes to be (staff issue, an order's finalization): the row and its audit entry. */
export async function writeVoucher(db: DbOrTx, ctx: Ctx, actor: string, x: VoucherToWrite): Promise<{ voucher: VoucherRow; code: string }> {
  const code = newCode();
  const voucher = await insertVoucher(db, {
    codeHash: codeHash(code), codeLast4: last4(code), ticketId: x.ticketId, priceCents: x.priceCents, vatPct: x.vatPct,
    currency: ctx.config.currency, language: x.language, recipient: x.recipient, expiresAt: x.expiresAt, issuedBy: actor, issuedAt: ctx.clock.now(),
    orderItemId: x.orderItemId ?? null, codeSealed: x.orderItemId ? sealSecret(code, sealingKey(ctx.config)) : null,
  });
  await recordAudit({ db, clock: ctx.clock }, { system: actor }, {
    action: 'voucher.issued', entityType: 'voucher', entityId: voucher.id, before: null,
    after: { ticket_id: x.ticketId, last4: voucher.codeLast4, ...(x.orderItemId ? { order_item_id: x.orderItemId } : {}) },
  });
  return { voucher, code };
}

export async function getVoucher(ctx: Ctx, id: number): Promise<VoucherRow> {
  requireStaff(ctx, 'read');
  const v = await voucherById(ctx.db, id);
  if (!v) throw notFound('voucher');
  return v;
}

export async function listVouchers(ctx: Ctx, q: { last4?: string; limit?: number; offset?: number }): Promise<VoucherRow[]> {
  requireStaff(ctx, 'read');
  return listRows(ctx.db, { last4: q.last4?.toUpperCase(), limit: q.limit ?? 50, offset: q.offset ?? 0 });
}

export function serializeVoucher(v: VoucherRow, zone: string, now: Date) {
  return {
    id: v.id, code_last4: v.codeLast4, ticket_id: v.ticketId, price_cents: v.priceCents, vat_pct: v.vatPct, currency: v.currency,
    language: v.language, recipient: v.recipient, expires_at: isoInZone(v.expiresAt, zone),
    status: (v.orderId !== null ? 'redeemed' : v.voidedAt !== null ? 'void' : v.expiresAt <= now ? 'expired' : 'valid') as 'redeemed' | 'void' | 'expired' | 'valid',
    order_id: v.orderId, redeemed_at: v.redeemedAt ? isoInZone(v.redeemedAt, zone) : null, issued_at: isoInZone(v.issuedAt, zone),
    sold_order_item_id: v.orderItemId,
  };
}
