// CSV that German Excel opens correctly by double-click: UTF-8 with a byte-order mark (else
// umlauts break), ';' between fields (',' is the decimal separator there), decimal comma,
// CRLF line ends, every field quoted. Text cells that start with = + - @ (or tab / CR, which
// Excel strips before reading a formula) get a leading apostrophe, so a customer or product
// name can never run as a formula (OWASP "CSV injection"). Numbers we format ourselves are
// numbers, not text: a negative amount stays -12,50 and is not defused.
export type Cell = string | null | undefined | { cents: number } | { number: number };

const FORMULA_START = /^[=+\-@\t\r]/;

function text(c: Cell): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'string') return FORMULA_START.test(c) ? `'${c}` : c;
  if ('cents' in c) return formatCents(c.cents);
  return formatNumber(c.number);
}

/** Integer cents as a decimal with comma: 1234 → "12,34", -5 → "-0,05". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`cents must be an integer, got ${cents}`);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** A plain number with decimal comma and no grouping: 5.5 → "5,5", 19 → "19". */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  return String(n).replace('.', ',');
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The whole file: BOM, header line, rows; every line ends with CRLF. */
export function toCsv(header: string[], rows: Cell[][]): string {
  const lines = [header.map((h) => quote(text(h))), ...rows.map((r) => r.map((c) => quote(text(c))))];
  return `\uFEFF${lines.map((l) => l.join(';')).join('\r\n')}\r\n`;
}
