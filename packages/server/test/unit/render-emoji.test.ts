// Emoji and symbols in a customer's name print as themselves, from the fallback font
// (src/documents/render/symbols.ts), not as "?": pdftotext finds them in the PDF's text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderConfirmationPdf } from '../../src/documents/render/confirmation.ts';
import { hasUnicodeFont } from '../../src/documents/render/pdf.ts';
import { symbolFont } from '../../src/documents/render/symbols.ts';
import type { ConfirmationPdfInput } from '../../src/domain/documents/renderTypes.ts';
import { hasPdfToText, PDFTOTEXT_MISSING, pdfPages, squash } from '../helpers/pdftext.ts';

const input: ConfirmationPdfInput = {
  order: { id: 7, reference: null, token: 't', created_at: new Date('2026-07-01T08:00:00Z') },
  museum: { title: 'Städel Museum ★', time_zone: 'Europe/Berlin' },
  currency: 'EUR',
  customer: { name: 'Jonas 🎉', surname: 'Weber ☕', email: 'weber@school.example' },
  bookings: [{ kind: 'tour', title: 'Highlights 🖼 for everyone', start_at: new Date('2026-10-25T09:00:00Z'), quantity: 5, price_cents: 9000, vat_pct: 19, status: 'booked' }],
};

test('emoji and symbols in names and titles are printed, not replaced by "?"', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  if (!hasUnicodeFont()) return t.skip('no Unicode text font (fonts-dejavu-core) installed');
  if (!symbolFont()) return t.skip('no symbol font (Debian fonts-symbola) installed: emoji print as "?"');
  const text = squash(pdfPages(await renderConfirmationPdf(input))!.join(' '));
  for (const s of ['Jonas 🎉 Weber ☕', 'Highlights 🖼 for everyone', 'Städel Museum ★']) assert.ok(text.includes(s), `missing ${s} in ${text.slice(0, 400)}`);
  assert.ok(!text.includes('?'), 'no character replaced by "?"');
});
