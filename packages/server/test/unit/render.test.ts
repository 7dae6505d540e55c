// Ticket PDFs: one page per admission, codes that really decode to the admission's barcode
// (decoded from the image data embedded in the PDF, not only from the PNGs), CANCELLED marking,
// museum-local slots in the visitor's language (text read by pdftotext), deterministic bytes. A tiny reader below walks pdfkit's object layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zxing from '@zxing/library';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { barcodePng, qrPng, renderTicketsPdf, type TicketsPdfInput } from '../../src/documents/render/index.ts';
import { hasPdfToText, PDFTOTEXT_MISSING, pdfPages, squash } from '../helpers/pdftext.ts';

// jsqr is CommonJS with an ES default export: under Node's ESM loader the function may sit on .default.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

// --- minimal PDF reader (pdfkit writes "N 0 obj\n<<\n…\n>>\nstream\n…" uncompressed dictionaries)
interface PdfObject { dict: string; stream: Buffer | null }
function readPdf(pdf: Buffer): Map<number, PdfObject> {
  const s = pdf.toString('latin1'); // 1 char = 1 byte, so string offsets are byte offsets
  const objects = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\n<<\n([\s\S]*?)\n>>\n(stream\n|endobj)/g;
  for (let m; (m = re.exec(s)); ) {
    let stream: Buffer | null = null;
    if (m[3] === 'stream\n') {
      const len = Number(/\/Length (\d+)/.exec(m[2]!)![1]);
      const start = m.index + m[0].length;
      stream = pdf.subarray(start, start + len);
      re.lastIndex = start + len;
    }
    objects.set(Number(m[1]), { dict: m[2]!, stream });
  }
  return objects;
}
const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)![1]);
const num = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+)`).exec(dict)![1]);

function pages(pdf: Buffer) {
  const objs = readPdf(pdf);
  const texts = pdfPages(pdf);
  const kids = /\/Kids \[([^\]]*)\]/.exec([...objs.values()].find((o) => /\/Type \/Pages\b/.test(o.dict))!.dict)![1]!;
  return [...kids.matchAll(/(\d+) 0 R/g)].map(([, id], i) => {
    const page = objs.get(Number(id))!.dict;
    const resources = objs.get(ref(page, 'Resources'))!.dict;
    const xobjects = /\/XObject <<([^>]*)>>/.exec(resources)?.[1] ?? '';
    const images = [...xobjects.matchAll(/\/(I\d+) (\d+) 0 R/g)].map(([, name, oid]) => ({ name: name!, ...objs.get(Number(oid))! }));
    return { text: texts ? squash(texts[i]!) : '', images };
  });
}

/** Rebuilds a PNG around an embedded image's Flate data (Predictor 15 = PNG row filters) and decodes it. */
function decodeEmbedded(img: PdfObject): { width: number; height: number; data: Buffer } {
  assert.match(img.dict, /\/ColorSpace \/DeviceGray/);
  const width = num(img.dict, 'Width');
  const height = num(img.dict, 'Height');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = num(img.dict, 'BitsPerComponent');
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]); // CRC unchecked
  };
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', img.stream!), chunk('IEND', Buffer.alloc(0))]);
  return PNG.sync.read(png, { checkCRC: false });
}

function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  return Buffer.concat(parts);
}

const readQr = (img: { width: number; height: number; data: Buffer }) => jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data;

function read1d(img: { width: number; height: number; data: Buffer }): string {
  const lum = new Uint8ClampedArray(img.width * img.height);
  for (let i = 0; i < lum.length; i++) lum[i] = img.data[i * 4]!; // RGBA from pngjs; gray in R
  const bitmap = new zxing.BinaryBitmap(new zxing.HybridBinarizer(new zxing.RGBLuminanceSource(lum, img.width, img.height)));
  return new zxing.Code128Reader().decode(bitmap).getText();
}

// --- fixtures
const order = { id: 4711, reference: 'SCHOOL-12', token: 'tok_abc', created_at: new Date('2026-03-20T09:15:00Z') };
const museum = { title: 'Museum Łódź & Co', time_zone: 'Europe/Berlin', location: 'Schaumainkai 63, Frankfurt' };
const adm = (barcode: string, status: 'valid' | 'void', start: string) => ({
  title: 'Adult admission', start_at: new Date(start), end_at: new Date(new Date(start).getTime() + 30 * 60_000), kind: 'time_slot' as const, price_cents: 1450, vat_pct: 7, barcode, status,
});
const input: TicketsPdfInput = {
  locale: 'en', order, museum, currency: 'EUR',
  admissions: [
    { ...adm('403421029763-5', 'valid', '2026-03-28T10:30:00Z'), attendee: { name: 'Zoë', surname: 'Müller' }, reduced: true },
    adm('100000000007-1', 'void', '2026-03-29T10:30:00Z'), // the DST day: 12:30 local at +02:00
    { ...adm('555555555555-0', 'valid', '2026-03-29T23:00:00Z'), kind: 'normal', end_at: null, day_ticket: true },
  ],
};

test('one page per admission, each with its museum-local date and slot as people write them, price and order', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const ps = pages(await renderTicketsPdf(input));
  assert.equal(ps.length, 3);
  assert.match(ps[0]!.text, /Sat, 28 Mar 2026, 11:30–12:00/);
  assert.match(ps[0]!.text, /Timed admission/);
  assert.doesNotMatch(ps[0]!.text, /time_slot/);
  assert.match(ps[1]!.text, /Sun, 29 Mar 2026, 12:30–13:00/);
  // 23:00Z on 29 March is already 30 March in Berlin; day tickets print no time.
  assert.match(ps[2]!.text, /Monday, 30 March 2026 \(valid all day\)/);
  assert.match(ps[2]!.text, /Day admission/);
  for (const [i, p] of ps.entries()) {
    assert.match(p.text, /€14\.50 incl\. 7% VAT/);
    assert.match(p.text, /Order 4711 \/ SCHOOL-12/);
    assert.match(p.text, new RegExp(`Admission ${i + 1} of 3`));
    assert.ok(p.text.includes(input.admissions[i]!.barcode));
  }
  // The embedded Unicode font prints names as written.
  assert.match(ps[0]!.text, /Museum Łódź & Co/);
  assert.match(ps[0]!.text, /Zoë Müller/);
  // Reduced tickets ask for proof at the door; the others do not.
  assert.match(ps[0]!.text, /Reduced ticket: please bring an official ID/);
  assert.doesNotMatch(ps[1]!.text, /Reduced ticket/);
});

test('German tickets read in German', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const ps = pages(await renderTicketsPdf({ ...input, locale: 'de' }));
  assert.match(ps[0]!.text, /Sa\., 28\. März 2026, 11:30–12:00/);
  assert.match(ps[0]!.text, /14,50 € inkl\. 7 % MwSt\./);
  assert.match(ps[0]!.text, /Zeitfenster-Ticket/);
  assert.match(ps[0]!.text, /Ermäßigtes Ticket/);
  assert.match(ps[1]!.text, /STORNIERT/);
});

test('the barcode and the QR code embedded on each page decode to that admission\'s barcode', async () => {
  const ps = pages(await renderTicketsPdf(input));
  for (const [i, p] of ps.entries()) {
    const code = input.admissions[i]!.barcode;
    assert.equal(p.images.length, 2, 'a barcode and a QR code per page');
    // The PDF carries exactly the pixel data of the PNGs the module draws …
    const embedded = p.images.map((img) => img.stream!);
    assert.ok(embedded.some((b) => b.equals(idatOf(barcodePng(code)))), 'the 1D barcode PNG is embedded as is');
    assert.ok(embedded.some((b) => b.equals(idatOf(qrPng(code)))), 'the QR PNG is embedded as is');
    // … and what is decoded out of the PDF reads back as the admission's code.
    const decoded = p.images.map((img) => decodeEmbedded(img));
    const qr = decoded.filter((d) => d.width === d.height);
    const bar = decoded.filter((d) => d.width !== d.height);
    assert.equal(readQr(qr[0]!), code);
    assert.equal(read1d(bar[0]!), code);
  }
});

test('the PNG helpers alone decode too, for any code (a decoder that returned anything would fail here)', () => {
  for (const code of ['000000000000-0', '987654321098-4']) {
    assert.equal(readQr(PNG.sync.read(qrPng(code))), code);
    assert.equal(read1d(PNG.sync.read(barcodePng(code))), code);
  }
  assert.notEqual(readQr(PNG.sync.read(qrPng('000000000000-0'))), '987654321098-4');
});

test('void admissions keep their page and are marked CANCELLED; valid ones are not', async (t) => {
  if (!hasPdfToText) return t.skip(PDFTOTEXT_MISSING);
  const ps = pages(await renderTicketsPdf(input));
  assert.match(ps[1]!.text, /CANCELLED: this admission is not valid for entry/);
  for (const p of [ps[0]!, ps[2]!]) assert.doesNotMatch(p.text, /CANCELLED/);
});

test('same input, same bytes; a different input changes them', async () => {
  const a = await renderTicketsPdf(input);
  const b = await renderTicketsPdf(structuredClone(input));
  assert.ok(a.equals(b));
  assert.match(a.toString('latin1'), /\(D:20260320091500Z\)/, "CreationDate is the order's created_at");
  const c = await renderTicketsPdf({ ...input, admissions: input.admissions.slice(0, 2) });
  assert.ok(!a.equals(c));
  assert.equal(pages(c).length, 2);
  await assert.rejects(renderTicketsPdf({ ...input, admissions: [] }), /without admissions/);
});
