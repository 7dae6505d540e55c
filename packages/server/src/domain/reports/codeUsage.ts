// Code-usage reports (docs/vouchers.md): per promo code, the uses, orders and discount total of a
// range of days; and every discount of the range (which code took how much off which order
// item, vouchers by their last four characters). JSON, or CSV like the other reports.
import { codeUsage, discountsBetween, type CodeUsageRow } from '../../db/repositories/orderDiscounts.ts';
import type { Ctx } from '../context.ts';
import { isoInZone } from '../time.ts';
import { voucherLabel } from '../vouchers/applied.ts';
import { toCsv } from './csv.ts';
import { requireReports, window } from './giftCards.ts';

export type CodeUsageReport = {
  from: string;
  to: string;
  codes: Array<{ code: string; kind: string; partner_account_id: number | null; uses_total: number; orders: number; discount_cents: number }>;
};

export async function codeUsageReport(ctx: Ctx, from: string, to: string): Promise<CodeUsageReport> {
  requireReports(ctx);
  const w = window(ctx, from, to);
  const rows: CodeUsageRow[] = await codeUsage(ctx.db, w.lo, w.hi);
  return { from, to, codes: rows.map((r) => ({ code: r.code, kind: r.kind, partner_account_id: r.partnerAccountId, uses_total: r.uses, orders: r.orders, discount_cents: r.discountCents })) };
}

export function codeUsageCsv(r: CodeUsageReport): string {
  return toCsv(['from', 'to', 'code', 'kind', 'partner_account_id', 'orders', 'discount', 'uses_total'],
    r.codes.map((c) => [r.from, r.to, c.code, c.kind, c.partner_account_id === null ? null : String(c.partner_account_id), { number: c.orders }, { cents: c.discount_cents }, { number: c.uses_total }]));
}

export async function codeDiscounts(ctx: Ctx, from: string, to: string) {
  requireReports(ctx);
  const w = window(ctx, from, to);
  return (await discountsBetween(ctx.db, w.lo, w.hi)).map((d) => ({
    at: isoInZone(d.createdAt, ctx.config.zone), order_id: d.orderId, item_id: d.orderItemId,
    code: d.promoCode ?? voucherLabel(d.voucherLast4 ?? ''), amount_cents: d.amountCents,
  }));
}

export function codeDiscountsCsv(rows: Awaited<ReturnType<typeof codeDiscounts>>): string {
  return toCsv(['at', 'order_id', 'item_id', 'code', 'amount'], rows.map((d) => [d.at, String(d.order_id), String(d.item_id), d.code, { cents: d.amount_cents }]));
}
