// Invoice arithmetic. Rounding is per line, half away from zero, in integer arithmetic:
//   tax included: gross = total_cents, net = round(gross × 100 / (100 + rate)), vat = gross − net
//   tax excluded: net = total_cents,   vat = round(net × rate / 100),         gross = net + vat
// Rate buckets and totals are plain sums of the rounded lines, so net + vat = gross holds on every
// line, every rate and the grand total, and the invoice's gross equals what the order charged for
// tax-included prices (the usual case for museum tickets). Rates are taken to 1/100 of a percent.
import type { InvoiceLineInput, InvoiceTotals, VatBucket } from '../documents/renderTypes.ts';

/** round(a / b) for integers, b > 0, halves away from zero; exact for |a| < 2^53. */
function divRound(a: number, b: number): number {
  const q = Math.floor(Math.abs(a) / b);
  const r = Math.abs(a) - q * b;
  const rounded = 2 * r >= b ? q + 1 : q;
  return a < 0 ? -rounded : rounded;
}

export function lineAmounts(line: Pick<InvoiceLineInput, 'total_cents' | 'vat_pct' | 'tax_included'>) {
  if (!Number.isSafeInteger(line.total_cents)) throw new Error(`invoice line total must be integer cents, got ${line.total_cents}`);
  if (!(line.vat_pct >= 0 && line.vat_pct < 100)) throw new Error(`invoice line VAT rate out of range: ${line.vat_pct}`);
  const bp = Math.round(line.vat_pct * 100); // basis points: 19% → 1900, 5.5% → 550
  if (line.tax_included) {
    const gross = line.total_cents;
    const net = divRound(gross * 10_000, 10_000 + bp);
    return { net_cents: net, vat_cents: gross - net, gross_cents: gross };
  }
  const net = line.total_cents;
  const vat = divRound(net * bp, 10_000);
  return { net_cents: net, vat_cents: vat, gross_cents: net + vat };
}

export function computeInvoiceTotals<L extends InvoiceLineInput>(lines: L[]): InvoiceTotals<L> {
  const out = lines.map((l) => ({ ...l, ...lineAmounts(l) }));
  // Lines not subject to VAT (category O, vat_pct 0) are a bucket of their own, apart from 0 %.
  const buckets = new Map<number, VatBucket>();
  for (const l of out) {
    const key = l.vat_category === 'O' ? -1 : Math.round(l.vat_pct * 100);
    const b = buckets.get(key) ?? { vat_pct: Math.max(key, 0) / 100, net_cents: 0, vat_cents: 0, gross_cents: 0, ...(key === -1 ? { category: 'O' as const } : {}) };
    b.net_cents += l.net_cents;
    b.vat_cents += l.vat_cents;
    b.gross_cents += l.gross_cents;
    buckets.set(key, b);
  }
  const by_rate = [...buckets.values()].sort((a, b) => a.vat_pct - b.vat_pct);
  const sum = (k: 'net_cents' | 'vat_cents' | 'gross_cents') => by_rate.reduce((s, b) => s + b[k], 0);
  return { lines: out, by_rate, net_cents: sum('net_cents'), vat_cents: sum('vat_cents'), gross_cents: sum('gross_cents') };
}
