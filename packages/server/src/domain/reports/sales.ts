// Sales by day, by ticket (product) or by channel (channels.ts: box office, online shop, a
// partner, OCTO), with net, VAT and gross per VAT rate. The ledger comes from SQL
// (salesLines.ts); the amounts of each line come from the invoices' own rule (lineAmounts), so a
// report's VAT equals the sum of what the invoices and credit notes show.
import { accountNames, productTitles, type ProductKind } from '../../db/repositories/reports.ts';
import type { Translated } from '../../db/schema/catalog.ts';
import { lineAmounts } from '../pricing/vat.ts';
import { channelName, channelOf } from './channels.ts';
import type { Ctx } from '../context.ts';
import { reportScope, type ReportInput } from './range.ts';
import { salesLedger, type LedgerRow, type SalesDimension } from './salesLines.ts';

export interface Amounts {
  quantity: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}
export interface SalesRow extends Amounts {
  key: string;
  label: string;
  vat_pct: number;
}
export interface SalesReport {
  by: SalesDimension;
  from: string;
  to: string;
  /** One row per key and VAT rate, keys in order, rates ascending. */
  rows: SalesRow[];
  /** Per VAT rate over everything. */
  by_rate: Array<Amounts & { vat_pct: number }>;
  total: Amounts;
}

const zero = (): Amounts => ({ quantity: 0, net_cents: 0, vat_cents: 0, gross_cents: 0 });

function add(into: Amounts, l: LedgerRow) {
  const a = lineAmounts({ total_cents: l.price_cents, vat_pct: l.vat_pct, tax_included: l.tax_included });
  const k = l.sign * l.lines;
  into.quantity += l.sign * l.quantity;
  into.net_cents += k * a.net_cents;
  into.vat_cents += k * a.vat_cents;
  into.gross_cents += k * a.gross_cents;
}

export async function salesReport(ctx: Ctx, input: ReportInput & { by: SalesDimension; locale?: string }): Promise<SalesReport> {
  const scope = await reportScope(ctx, input);
  const ledger = await salesLedger(ctx, scope, input.by);
  const cells = new Map<string, SalesRow>();
  const rates = new Map<number, Amounts & { vat_pct: number }>();
  const total = zero();
  for (const l of ledger) {
    const bp = Math.round(l.vat_pct * 100); // the invoices' bucket key (vat.ts): 1/100 of a percent
    const id = `${l.key}\u0000${bp}`;
    const row = cells.get(id) ?? { key: l.key, label: l.key, vat_pct: bp / 100, ...zero() };
    cells.set(id, row);
    add(row, l);
    const rate = rates.get(bp) ?? { vat_pct: bp / 100, ...zero() };
    rates.set(bp, rate);
    add(rate, l);
    add(total, l);
  }
  const rows = [...cells.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.vat_pct - b.vat_pct));
  const labels = await labelsFor(ctx, input.by, rows.map((r) => r.key), [input.locale ?? '', ...ctx.config.locales]);
  for (const r of rows) r.label = labels.get(r.key) ?? r.key;
  if (input.by === 'ticket') rows.sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key) || a.vat_pct - b.vat_pct);
  return { by: input.by, from: scope.from, to: scope.to, rows, by_rate: [...rates.values()].sort((a, b) => a.vat_pct - b.vat_pct), total };
}

function pick(t: Translated | null | undefined, locales: string[]): string {
  if (!t) return '';
  for (const l of locales) if (l && t[l]) return t[l]!;
  return Object.values(t)[0] ?? '';
}

/** Human names of the keys: product titles, channels as people say them; days stay as they are. */
async function labelsFor(ctx: Ctx, by: SalesDimension, keys: string[], locales: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const idsOf = (prefix: string) => [...new Set(keys.filter((k) => k.startsWith(`${prefix}:`)).map((k) => Number(k.split(':')[1])))];
  if (by === 'ticket') {
    const load = async (prefix: ProductKind) => {
      for (const r of await productTitles(ctx.db, prefix, idsOf(prefix))) out.set(`${prefix}:${r.id}`, pick(r.title, locales) || `${prefix} ${r.id}`);
    };
    await Promise.all([load('Ticket'), load('Event'), load('Tour')]);
  } else if (by === 'channel') {
    const ids = [...new Set(keys.map((k) => Number(k.slice(k.lastIndexOf(':') + 1))))];
    const rows = await accountNames(ctx.db, ids);
    const names = new Map(rows.map((r) => [r.id, r.name]));
    const locale = locales.find((l) => l === 'de' || l === 'en') ?? 'de';
    for (const k of keys) {
      const i = k.lastIndexOf(':');
      out.set(k, channelName(channelOf(k.slice(0, i)), locale, names.get(Number(k.slice(i + 1)))));
    }
  }
  return out;
}
