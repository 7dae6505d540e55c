// The cash closing record (Kassenabschluss) as a one-page A4 PDF: a title, then label/amount
// rows as the console's record page shows them. The caller passes the words in the user's
// language; nothing here computes a figure.
import { A4, MARGIN, addPage, newDoc, rule, text } from './pdf.ts';

export interface ClosingPdfInput {
  title: string;
  subtitle: string;
  closedAt: Date;
  /** [label, amount] rows; a null label draws a separator line, a bold row starts with "*". */
  rows: Array<[string, string] | null>;
}

export async function renderCashClosingPdf(input: ClosingPdfInput): Promise<Buffer> {
  const { doc, bytes } = newDoc({ title: input.title, subject: input.subtitle, author: 'Atrium', createdAt: input.closedAt });
  addPage(doc);
  let y = MARGIN;
  y += text(doc, input.title, MARGIN, y, { font: 'Helvetica-Bold', size: 16 }) + 4;
  y += text(doc, input.subtitle, MARGIN, y, { size: 10 }) + 12;
  for (const r of input.rows) {
    if (r === null) {
      rule(doc, y + 2);
      y += 8;
      continue;
    }
    const bold = r[0].startsWith('*');
    const font = bold ? 'Helvetica-Bold' : 'Helvetica';
    text(doc, bold ? r[0].slice(1) : r[0], MARGIN, y, { font, width: 330 });
    y += text(doc, r[1], MARGIN + 340, y, { font, width: A4.width - 2 * MARGIN - 340, align: 'right' }) + 3;
  }
  doc.end();
  return bytes;
}
