// Right-to-left and mixed names on tickets and invoices are drawn in the visual order the Unicode
// Bidirectional Algorithm prescribes (docs/adr/0025-*.md). What is compared is the order of the
// glyphs as drawn (test/helpers/pdfglyphs.ts), left to right, against visual strings written out
// by hand from UAX #9 (not computed by bidi-js, which the code under test uses). Arabic must stay
// joined: the drawn glyphs' outlines are compared with the font's presentation forms. Controls:
// the old rendering (pdfkit's own layout) and the naive fix (reorder the string, then let fontkit
// lay it out, which reverses right-to-left runs a second time) both fail the same checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import PDFDocument from 'pdfkit';
import bidiModule from 'bidi-js';
import type { IssuedInvoice } from '../../src/domain/documents/invoiceTypes.ts';
import { renderInvoicePdf, renderTicketsPdf, type TicketsPdfInput } from '../../src/documents/render/index.ts';
import { rawUnicodeFont } from '../../src/documents/render/pdf.ts';
import { drawnLines } from '../helpers/pdfglyphs.ts';
import { hasPdfToText, pdfPages } from '../helpers/pdftext.ts';

const NO_FONT = 'DejaVu Sans is not installed: right-to-left PDF checks skipped (names print as "?")';

// Logical text → what a reader sees, left to right. Worked out by hand:
// - a paragraph takes the direction of its first strong letter (P2, P3);
// - right-to-left words read right to left, so their letters and their order flip;
// - a space or bracket between two letters of one direction takes it (N1); brackets around Latin
//   text take the direction of the pair's content and context (N0) and are mirrored in a
//   right-to-left run (L4), so "(VIP)" still looks like "(VIP)";
// - digits after Hebrew in a left-to-right line stay left to right and move before it (W7, I1, L2).
const CASES: Array<{ name: string; surname: string; visual: string }> = [
  { name: 'שרה', surname: 'כהן', visual: 'ןהכ הרש' },
  { name: 'محمد', surname: 'علي', visual: 'يلع دمحم' },
  { name: 'Dr. محمد', surname: 'علي (VIP)', visual: 'Dr. يلع دمحم (VIP)' },
  { name: 'ACME', surname: 'בע"מ 2024', visual: 'ACME 2024 מ"עב' },
  { name: 'محمد', surname: 'علي (VIP)', visual: '(VIP) يلع دمحم' },
  { name: 'Führung', surname: '(עברית)', visual: 'Führung (תירבע)' },
  { name: 'Zoë\u200f', surname: 'Müller', visual: 'Zoë Müller' }, // a right-to-left mark steers, is not drawn
];

/** The expected lines that no drawn line of their page equals, with what was drawn instead. */
function misdrawn(pdf: Buffer, expected: string[][]): string[] {
  const pages = drawnLines(pdf);
  return expected.flatMap((want, p) =>
    want.filter((w) => !pages[p]!.some((l) => l.text === w)).map((w) => `page ${p + 1}: want ${JSON.stringify(w)}, drawn ${JSON.stringify(pages[p]!.map((l) => l.text).filter((t) => /[^\x20-\x7e]/.test(t)))}`),
  );
}

const ticketInput = (cases: typeof CASES): TicketsPdfInput => ({
  locale: 'de',
  order: { id: 4711, reference: null, token: 't', created_at: new Date('2026-03-20T09:15:00Z') },
  museum: { title: 'Städel Museum', time_zone: 'Europe/Berlin', location: 'Schaumainkai 63, Frankfurt' },
  currency: 'EUR',
  admissions: cases.map((c, i) => ({
    title: 'Erwachsene', kind: 'time_slot' as const, price_cents: 1400, vat_pct: 7, status: 'valid' as const, barcode: `40342102976${i}-5`,
    start_at: new Date('2026-03-28T10:30:00Z'), end_at: new Date('2026-03-28T11:00:00Z'), attendee: { name: c.name, surname: c.surname },
  })),
});

/** A PDF drawn the way a renderer draws a line, through plain pdfkit: one case per page. */
async function plainPdfkit(lines: string[], features?: object): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false });
  doc.registerFont('dejavu', rawUnicodeFont('bold') as unknown as Buffer);
  for (const l of lines) doc.addPage({ size: 'A4', margin: 50 }).font('dejavu').fontSize(13).text(l, 150, 200, { width: 395, features: features as never });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.end();
  return done;
}

test('tickets draw Hebrew, Arabic and mixed names in the order the bidi algorithm prescribes', async (t) => {
  if (!rawUnicodeFont('bold')) return t.skip(NO_FONT);
  const pdf = await renderTicketsPdf(ticketInput(CASES));
  assert.deepEqual(misdrawn(pdf, CASES.map((c) => [c.visual])), []);
});

test('controls: the old rendering and the naive fix (reorder, then fontkit reverses again) fail', async (t) => {
  if (!rawUnicodeFont('bold')) return t.skip(NO_FONT);
  const values = CASES.map((c) => `${c.name} ${c.surname}`);
  const expected = CASES.map((c) => [c.visual]);
  // Old: pdfkit cut the line after each space and fontkit reversed each right-to-left word alone.
  // Each word mirrored alone, words left to right, the space at the left: " הרשןהכ".
  const old = misdrawn(await plainPdfkit(values), expected);
  assert.ok(old.some((m) => m.includes('"ןהכ הרש"') && m.includes('" הרשןהכ"')), old.join('\n'));
  assert.equal(old.length, CASES.length, old.join('\n'));
  // Naive: the whole line reordered by bidi-js and handed over; fontkit reverses the RTL words again.
  const bidi = ((bidiModule as unknown as { default?: typeof bidiModule.default }).default ?? (bidiModule as unknown as typeof bidiModule.default))();
  const reordered = values.map((v) => bidi.getReorderedString(v, bidi.getEmbeddingLevels(v)));
  const naive = misdrawn(await plainPdfkit(reordered), expected);
  assert.ok(naive.some((m) => m.includes('"ןהכ הרש"') && m.includes('" כהןשרה"')), naive.join('\n'));
  assert.equal(naive.length, CASES.length, naive.join('\n'));
});

// Presentation forms of the letters of "محمد علي" as drawn left to right: ي final, ل medial,
// ع initial, space, د final, م medial, ح medial, م initial.
const JOINED = [0xfef2, 0xfee0, 0xfecb, 0x20, 0xfeaa, 0xfee4, 0xfea4, 0xfee3];

test('Arabic letters stay joined: each drawn glyph is the positional form of its letter', async (t) => {
  const font = rawUnicodeFont('bold');
  if (!font) return t.skip(NO_FONT);
  const want = JOINED.map((cp) => font.glyphForCodePoint(cp).path.toSVG());
  const outlines = async (pdf: Buffer) => drawnLines(pdf)[0]!.find((l) => l.text === 'يلع دمحم')?.outlines();
  assert.deepEqual(await outlines(await renderTicketsPdf(ticketInput([CASES[1]!]))), want);
  // Control: the same line with the joining forms switched off draws other glyphs (isolated forms).
  const isolated = await outlines(await plainPdfkit(['محمد علي'], { init: false, medi: false, fina: false }));
  assert.ok(isolated, 'the control draws the line in the expected order');
  assert.notDeepEqual(isolated, want);
});

const invoice: IssuedInvoice = {
  kind: 'invoice', number: 'INV-000017', issued_at: '2026-07-01T10:00:00.000Z', locale: 'de', time_zone: 'Europe/Berlin', currency: 'EUR',
  seller: { name: 'Städel Museum', street: 'Schaumainkai 63', zip: '60596', city: 'Frankfurt am Main', country: 'DE', vatId: 'DE123456789', taxNumber: null, email: null },
  buyer: { name: 'محمد علي (VIP)', institution: 'ACME בע"מ 2024', street: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE', email: null },
  order: { id: 42, reference: null },
  service: { from: '2026-07-06', to: '2026-07-06' },
  lines: [{ title: 'Führung (עברית)', detail: null, quantity: 1, unit_price_cents: 9000, total_cents: 9000, vat_pct: 19, tax_included: true, service_date: '2026-07-06' }],
  refers_to: null,
  small_amount: false,
};

test('invoices draw the buyer, the institution and line titles in visual order', async (t) => {
  if (!rawUnicodeFont('bold')) return t.skip(NO_FONT);
  const pdf = await renderInvoicePdf(invoice);
  assert.deepEqual(misdrawn(pdf, [['(VIP) يلع دمحم', 'ACME 2024 מ"עב', 'Führung (תירבע)']]), []);
});

test('a wrapped right-to-left name: each line reads right to left, its first words on the first line', async (t) => {
  if (!rawUnicodeFont('bold')) return t.skip(NO_FONT);
  const words = 'אברהם יצחק יעקב שרה רבקה רחל לאה משה אהרן מרים דוד שלמה אסתר רות נעמי יונה'.split(' ');
  const name = [...words, ...words].join(' ');
  const pdf = await renderInvoicePdf({ ...invoice, buyer: { ...invoice.buyer!, name, institution: null } });
  const lines = drawnLines(pdf)[0]!.map((l) => l.text).filter((l) => /^[\u05d0-\u05ea ]+$/.test(l)); // not the line title
  assert.ok(lines.length >= 2, `the name wraps: ${JSON.stringify(lines)}`);
  // Pure Hebrew: reading a drawn line from its right end gives back its logical words.
  assert.equal(lines.map((l) => [...l].reverse().join('')).join(' '), name);
});

test('pdftotext reads right-to-left names back with their spaces (copy and search work)', async (t) => {
  if (!hasPdfToText || !rawUnicodeFont('bold')) return t.skip('pdftotext or DejaVu Sans missing');
  // poppler turns right-to-left text back into logical order, wrapped in embedding marks.
  const read = (pdf: Buffer) => pdfPages(pdf, { layout: false })!.map((p) => p.replace(/[\u202a-\u202e]/g, ''));
  const pages = read(await renderTicketsPdf(ticketInput(CASES.slice(0, 2))));
  assert.ok(pages[0]!.includes('שרה כהן') && pages[1]!.includes('محمد علي'), JSON.stringify(pages));
  const old = read(await plainPdfkit(['שרה כהן', 'محمد علي']));
  assert.ok(!old[0]!.includes('שרה כהן') && !old[1]!.includes('محمد علي'), 'control: the old rendering reads back with the words joined');
});
