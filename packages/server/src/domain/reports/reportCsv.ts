// The reports as CSV files (csv.ts), headed in the staff member's language. Amounts are euros
// with decimal comma; the VAT rate is a number of percent.
import { toCsv, type Cell } from './csv.ts';
import type { SalesReport } from './sales.ts';
import type { VisitorsReport } from './visitors.ts';

const HEAD = {
  de: { day: 'Tag', ticket: 'Produkt', channel: 'Kanal', vat_pct: 'USt-Satz %', quantity: 'Anzahl', net: 'Netto', vat: 'USt', gross: 'Brutto', total: 'Summe', date: 'Datum', hour: 'Stunde', entries: 'Eintritte', exits: 'Austritte' },
  en: { day: 'Day', ticket: 'Product', channel: 'Channel', vat_pct: 'VAT rate %', quantity: 'Quantity', net: 'Net', vat: 'VAT', gross: 'Gross', total: 'Total', date: 'Date', hour: 'Hour', entries: 'Entries', exits: 'Exits' },
};
const headOf = (locale: string) => (locale.startsWith('de') ? HEAD.de : HEAD.en);

/** One line per key and VAT rate, then one total line per rate. */
export function salesCsv(r: SalesReport, locale: string): string {
  const h = headOf(locale);
  const money = (a: { quantity: number; net_cents: number; vat_cents: number; gross_cents: number }): Cell[] =>
    [{ number: a.quantity }, { cents: a.net_cents }, { cents: a.vat_cents }, { cents: a.gross_cents }];
  const rows: Cell[][] = r.rows.map((x) => [x.label, { number: x.vat_pct }, ...money(x)]);
  for (const t of r.by_rate) rows.push([h.total, { number: t.vat_pct }, ...money(t)]);
  return toCsv([h[r.by], h.vat_pct, h.quantity, h.net, h.vat, h.gross], rows);
}

export function visitorsCsv(r: VisitorsReport, locale: string): string {
  const h = headOf(locale);
  return toCsv(
    [h.date, h.hour, h.entries, h.exits],
    r.rows.map((x) => [x.date, `${String(x.hour).padStart(2, '0')}:00`, { number: x.entries }, { number: x.exits }]),
  );
}
