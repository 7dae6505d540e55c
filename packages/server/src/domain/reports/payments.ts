// The payments reconciliation report (docs/payments.md, "Reconciliation"): per provider and
// museum-local day, the payments confirmed, the refunds done and the net, so a bookkeeper can
// match them with the provider's payouts; as CSV one line per payment and refund. The sums are
// SQL aggregates (db/repositories/payments.ts); the range rule is every report's (range.ts).
import { moneyMoves, paymentsPerDay } from '../../db/repositories/payments.ts';
import type { Ctx } from '../context.ts';
import { isoInZone } from '../time.ts';
import { toCsv } from './csv.ts';
import { rangeOf, reportScope, type ReportInput } from './range.ts';

export interface Money {
  count: number;
  cents: number;
}
export interface PaymentsReportRow {
  provider: string;
  day: string;
  confirmed: Money;
  refunded: Money;
  net_cents: number;
}
export interface PaymentsReport {
  from: string;
  to: string;
  rows: PaymentsReportRow[];
  total: { confirmed: Money; refunded: Money; net_cents: number };
}

export async function paymentsReport(ctx: Ctx, input: ReportInput): Promise<PaymentsReport> {
  const scope = await reportScope(ctx, input);
  const rows = (await paymentsPerDay(ctx.db, rangeOf(scope))).map((x) => ({
    provider: x.provider,
    day: x.day,
    confirmed: { count: x.confirmed_count, cents: x.confirmed_cents },
    refunded: { count: x.refunded_count, cents: x.refunded_cents },
    net_cents: x.confirmed_cents - x.refunded_cents,
  }));
  const sum = (f: (r: PaymentsReportRow) => number) => rows.reduce((s, r) => s + f(r), 0);
  const confirmed = { count: sum((r) => r.confirmed.count), cents: sum((r) => r.confirmed.cents) };
  const refunded = { count: sum((r) => r.refunded.count), cents: sum((r) => r.refunded.cents) };
  return { from: scope.from, to: scope.to, rows, total: { confirmed, refunded, net_cents: confirmed.cents - refunded.cents } };
}

const HEADER = ['day', 'provider', 'kind', 'provider_ref', 'order_id', 'payment_id', 'refund_id', 'amount', 'currency', 'state', 'created_at', 'confirmed_or_done_at'];

/** One line per payment confirmed and refund done in the range; refunds' amounts are negative. */
export async function paymentsReportCsv(ctx: Ctx, input: ReportInput): Promise<{ from: string; to: string; csv: string }> {
  const scope = await reportScope(ctx, input);
  const zone = ctx.config.zone;
  const rows = (await moneyMoves(ctx.db, rangeOf(scope))).map((m) => [
    m.day, m.provider, m.kind, m.provider_ref, String(m.order_id), String(m.payment_id), m.refund_id === null ? null : String(m.refund_id),
    { cents: m.kind === 'refund' ? -m.amount_cents : m.amount_cents }, m.currency, m.state, isoInZone(m.created_at, zone), isoInZone(m.at, zone),
  ]);
  return { from: scope.from, to: scope.to, csv: toCsv(HEADER, rows) };
}

export interface PaymentMove {
  kind: 'payment' | 'refund';
  provider: string;
  day: string;
  order_id: number;
  payment_id: number;
  refund_id: number | null;
  provider_ref: string | null;
  /** Negative for refunds, as in the CSV. */
  amount_cents: number;
  at: Date;
}

/** The report's single entries (the CSV's lines) for the console's page, in time order. */
export async function paymentMoves(ctx: Ctx, input: ReportInput): Promise<PaymentMove[]> {
  const scope = await reportScope(ctx, input);
  return (await moneyMoves(ctx.db, rangeOf(scope))).map((m) => ({
    kind: m.kind, provider: m.provider, day: m.day, order_id: m.order_id, payment_id: m.payment_id, refund_id: m.refund_id,
    provider_ref: m.provider_ref, amount_cents: m.kind === 'refund' ? -m.amount_cents : m.amount_cents, at: m.at,
  }));
}
