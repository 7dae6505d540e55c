// Cash closing (Kassenabschluss) per cashier and business day: what the cashier's box-office
// orders moved that day (sales, refunds and cancellations per payment method, each with a grand
// total; VAT per rate with a grand total, by the invoices' own rule, pricing/vat.ts), the cash
// that should be in the drawer (opening float + cash sales − cash refunds + gift cards sold for
// cash), the cash counted and the difference. Gift cards sold at the desk (on their own form or
// as basket lines, in an order of their own) are money taken without VAT: on their own line, not
// in the sales or the VAT (the repository leaves gift-card orders out of those). Closing writes the record
// once, in the cashier's name; the database refuses any later change (a correction is the next
// day's business, never an edit).
import {
  cashClosingById, cashClosingOf, deskLedger, deskPaymentsBy, deskRefundsBy, giftCardSalesBy, insertCashClosing, invoicedBy, recentCashClosings, type CashClosingRow, type MethodSum,
} from '../../db/repositories/cashClosings.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { lineAmounts } from '../pricing/vat.ts';
import { addDays, isValidDate, localDateOf, startOfLocalDay } from '../time.ts';
import type { StaffCtx } from './principal.ts';
import { PAYMENT_METHODS } from './sellAtDesk.ts';

export interface ByMethod { cash: number; card: number; invoice: number; total: number }
export interface ClosingSummary {
  date: string;
  cashier: { id: number; email: string };
  sales: ByMethod;
  refunds: ByMethod;
  cancellations: { lines: number; gross_cents: number };
  vat: Array<{ vat_pct: number; net_cents: number; vat_cents: number; gross_cents: number }>;
  vat_total: { net_cents: number; vat_cents: number; gross_cents: number };
  /** Gift cards sold at the desk: money taken without VAT (absent from closings made before). */
  gift_cards?: ByMethod;
  expected_cash_cents: number;
}

const byMethod = (rows: MethodSum[]): ByMethod => {
  const out: ByMethod = { cash: 0, card: 0, invoice: 0, total: 0 };
  for (const r of rows) {
    const m = (PAYMENT_METHODS as readonly string[]).includes(r.method) ? (r.method as 'cash' | 'card' | 'invoice') : 'card';
    out[m] += r.cents;
    out.total += r.cents;
  }
  return out;
};

function dayOf(ctx: StaffCtx, date: string | undefined): string {
  if (date === undefined || date === '') return localDateOf(ctx.clock.now(), ctx.config.zone);
  if (!isValidDate(date)) throw invalid('the date must be a date (YYYY-MM-DD)');
  return date;
}

/** The day's figures for the signed-in cashier, as a closing would record them (opening float 0). */
export async function cashDay(ctx: StaffCtx, input: { date?: string; openingFloatCents?: number }): Promise<ClosingSummary> {
  const date = dayOf(ctx, input.date);
  const from = startOfLocalDay(date, ctx.config.zone);
  const to = startOfLocalDay(addDays(date, 1), ctx.config.zone);
  const id = ctx.staff.id;
  const [paid, invoiced, refunded, ledger, cards] = await Promise.all([
    deskPaymentsBy(ctx.db, id, from, to), invoicedBy(ctx.db, id, from, to), deskRefundsBy(ctx.db, id, from, to), deskLedger(ctx.db, id, from, to),
    giftCardSalesBy(ctx.db, id, from, to),
  ]);
  const giftCards = byMethod(cards);
  const sales = byMethod([...paid, invoiced]);
  const refunds = byMethod(refunded);
  const rates = new Map<number, { vat_pct: number; net_cents: number; vat_cents: number; gross_cents: number }>();
  const cancellations = { lines: 0, gross_cents: 0 };
  for (const l of ledger) {
    const a = lineAmounts({ total_cents: l.price_cents, vat_pct: l.vat_pct, tax_included: l.tax_included });
    const key = Math.round(l.vat_pct * 100);
    const r = rates.get(key) ?? { vat_pct: key / 100, net_cents: 0, vat_cents: 0, gross_cents: 0 };
    r.net_cents += l.sign * a.net_cents;
    r.vat_cents += l.sign * a.vat_cents;
    r.gross_cents += l.sign * a.gross_cents;
    rates.set(key, r);
    if (l.sign < 0) {
      cancellations.lines += 1;
      cancellations.gross_cents += a.gross_cents;
    }
  }
  const vat = [...rates.values()].sort((a, b) => a.vat_pct - b.vat_pct);
  const sum = (k: 'net_cents' | 'vat_cents' | 'gross_cents') => vat.reduce((s, r) => s + r[k], 0);
  return {
    date, cashier: { id, email: ctx.staff.email }, sales, refunds, cancellations, vat,
    vat_total: { net_cents: sum('net_cents'), vat_cents: sum('vat_cents'), gross_cents: sum('gross_cents') },
    gift_cards: giftCards,
    expected_cash_cents: (input.openingFloatCents ?? 0) + sales.cash - refunds.cash + giftCards.cash,
  };
}

/** Closes the cashier's day: computes the figures now and writes them once. */
export async function closeCashDay(ctx: StaffCtx, input: { date?: string; openingFloatCents: number; countedCashCents: number }): Promise<CashClosingRow> {
  for (const [name, v] of [['opening float', input.openingFloatCents], ['counted cash', input.countedCashCents]] as const) {
    if (!Number.isSafeInteger(v) || v < 0 || v > 100_000_000) throw invalid('the cash closing could not be saved', [`${name} must be an amount`]);
  }
  const summary = await cashDay(ctx, input);
  return transaction(ctx.db, async (tx) => {
    const row = await insertCashClosing(tx, {
      staffUserId: ctx.staff.id, businessDate: summary.date, openingFloatCents: input.openingFloatCents, expectedCashCents: summary.expected_cash_cents,
      countedCashCents: input.countedCashCents, differenceCents: input.countedCashCents - summary.expected_cash_cents,
      summary, closedAt: ctx.clock.now(), closedBy: ctx.staff.id,
    });
    if (!row) throw new DomainError('VALIDATION_FAILED', 'the cash closing could not be saved', { errors: [`the day ${summary.date} is already closed`] });
    await recordAudit({ ...ctx, db: tx as unknown as StaffCtx['db'] }, ctx.staff, {
      action: 'cash.close', entityType: 'cash_closing', entityId: row.id, museumId: null, after: { date: row.businessDate, counted_cents: row.countedCashCents, difference_cents: row.differenceCents },
    });
    return row;
  });
}

/** A closing record: the cashier's own, or any for managers and admins. */
export async function getCashClosing(ctx: StaffCtx, id: number): Promise<CashClosingRow> {
  const row = await cashClosingById(ctx.db, id);
  if (!row || (row.staffUserId !== ctx.staff.id && ctx.staff.role === 'box_office')) throw notFound('cash closing');
  return row;
}

export const closedDay = (ctx: StaffCtx, date: string) => cashClosingOf(ctx.db, ctx.staff.id, date);

export const listCashClosings = (ctx: StaffCtx) => recentCashClosings(ctx.db, ctx.staff.role === 'box_office' ? ctx.staff.id : null);
