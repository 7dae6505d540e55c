// Gift-card reports (docs/vouchers.md): the outstanding value of valid cards (a liability on the
// balance sheet until redeemed or expired) and every ledger movement of a date range, summed per
// kind, or as CSV one line per movement. Cards belong to the instance, not to a museum: the days
// are those of the instance's zone, and the reports need the reports right, not a museum scope.
import { ledgerBetween, outstandingValue, type LiabilityRow } from '../../db/repositories/giftCards.ts';
import type { Ctx } from '../context.ts';
import { forbidden, invalid } from '../errors.ts';
import { hasRight } from '../principal.ts';
import { addDays, daysBetween, isoInZone, isValidDate, zonedInstant } from '../time.ts';
import { toCsv } from './csv.ts';
import { MAX_REPORT_DAYS } from './range.ts';

export function requireReports(ctx: Ctx) {
  if (!hasRight(ctx.principal, 'reports', 'read')) throw forbidden();
}

export async function giftCardLiability(ctx: Ctx): Promise<{ at: string; rows: LiabilityRow[] }> {
  requireReports(ctx);
  const now = ctx.clock.now();
  return { at: isoInZone(now, ctx.config.zone), rows: await outstandingValue(ctx.db, now) };
}

export function liabilityCsv(r: { at: string; rows: LiabilityRow[] }): string {
  return toCsv(['at', 'currency', 'cards', 'outstanding'], r.rows.map((x) => [r.at, x.currency, { number: x.cards }, { cents: x.outstanding_cents }]));
}

/** A report's range of whole days in the instance zone, checked; [lo, hi) as instants. */
export function window(ctx: Ctx, from: string, to: string) {
  const errors: string[] = [];
  if (!isValidDate(from)) errors.push('from must be a date YYYY-MM-DD');
  if (!isValidDate(to)) errors.push('to must be a date YYYY-MM-DD');
  if (errors.length === 0 && daysBetween(from, to) < 0) errors.push('to must not be before from');
  if (errors.length === 0 && daysBetween(from, to) >= MAX_REPORT_DAYS) errors.push(`the range may span at most ${MAX_REPORT_DAYS} days`);
  if (errors.length) throw invalid(errors.join('; '), errors);
  return { lo: zonedInstant(from, 0, ctx.config.zone), hi: zonedInstant(addDays(to, 1), 0, ctx.config.zone) };
}

export type LedgerSummary = {
  from: string;
  to: string;
  kinds: Array<{ kind: string; count: number; cents: number }>;
};

/** Movements per kind: issued (sold), redeemed, refunded to cards, expired, corrected. */
export async function giftCardLedgerReport(ctx: Ctx, from: string, to: string): Promise<LedgerSummary> {
  requireReports(ctx);
  const w = window(ctx, from, to);
  const sums = new Map<string, { count: number; cents: number }>();
  for (const r of await ledgerBetween(ctx.db, w.lo, w.hi)) {
    const s = sums.get(r.kind) ?? { count: 0, cents: 0 };
    s.count++;
    s.cents += r.amount_cents;
    sums.set(r.kind, s);
  }
  return { from, to, kinds: [...sums].map(([kind, s]) => ({ kind, ...s })).sort((a, b) => a.kind.localeCompare(b.kind)) };
}

export async function giftCardLedgerCsv(ctx: Ctx, from: string, to: string): Promise<string> {
  requireReports(ctx);
  const w = window(ctx, from, to);
  const rows = (await ledgerBetween(ctx.db, w.lo, w.hi)).map((r) => [
    isoInZone(r.created_at, ctx.config.zone), String(r.gift_card_id), r.code_last4, r.kind, { cents: r.amount_cents }, { cents: r.balance_after_cents },
    r.order_id === null ? null : String(r.order_id), r.payment_id === null ? null : String(r.payment_id), r.actor, r.reason,
  ]);
  return toCsv(['at', 'gift_card_id', 'code_last4', 'kind', 'amount', 'balance_after', 'order_id', 'payment_id', 'actor', 'reason'], rows);
}
