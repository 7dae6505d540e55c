// Shared pdfkit plumbing for the renderers: a deterministic document (fixed CreationDate, so
// pdfkit's file ID, an MD5 of the info dictionary, is fixed too; no other randomness is
// written), collecting the output into one Buffer, fonts that cover the text, and the diagonal
// stamp for void admissions / cancelled bookings.
import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import * as fontkit from 'fontkit';
import { bidiFeatures, isBidiControl, withBidi } from './bidi.ts';
import { SYMBOL_FONT, symbolCovers, symbolFont, symbolRuns } from './symbols.ts';

export type Doc = PDFKit.PDFDocument;

export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 50;
export const CONTENT_WIDTH = A4.width - 2 * MARGIN;
export const GRAY = '#555555';
export const RED = '#c00000';

export interface DocMeta {
  title: string;
  subject: string;
  author: string;
  createdAt: Date;
}

/** A new document plus the promise of its bytes (resolved after `doc.end()`). */
export function newDoc(meta: DocMeta): { doc: Doc; bytes: Promise<Buffer> } {
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: {
      Title: printable(meta.title),
      Subject: printable(meta.subject),
      Author: printable(meta.author),
      Creator: 'Atrium',
      Producer: 'Atrium',
      CreationDate: meta.createdAt,
      ModDate: meta.createdAt,
    },
  });
  const u = unicodeFonts();
  // pdfkit's typings only name file paths and buffers; PDFFontFactory.open takes a font object too.
  if (u) for (const role of Object.keys(FONT_FILES) as FontRole[]) doc.registerFont(`atrium-${role}`, u.pdfFonts[role] as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

// Fonts: pdfkit bundles only the 14 standard PDF fonts (AFM metrics, WinAnsi: Latin-1 and a few
// signs). Names in Greek, Cyrillic, Hebrew, Arabic … need a TrueType font: DejaVu Sans (Debian's
// fonts-dejavu-core, on nearly every Linux; ATRIUM_PDF_FONT_DIR points elsewhere) is embedded
// (subset) when found. Characters it has no glyph for (emoji, symbols) are drawn with the
// fallback font of symbols.ts; what neither has prints as "?", never as a broken PDF. Without the font, text is reduced to WinAnsi (see printable below).
// Right-to-left and mixed lines are put in visual order by bidi.ts (docs/adr/0025-*.md).
const FONT_DIRS = [process.env.ATRIUM_PDF_FONT_DIR, '/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/usr/local/share/fonts/dejavu'];
const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', mono: 'DejaVuSansMono.ttf' } as const;
type FontRole = keyof typeof FONT_FILES;
// The parsed fonts are shared by every document of the process (pdfkit accepts a fontkit font in
// place of the file and subsets it per document): parsing DejaVu Sans again for every PDF was
// most of a ticket's rendering time.
// pdfkit gets each font wrapped by withBidi (its layout orders right-to-left lines visually).
interface Unicode { fonts: Record<FontRole, fontkit.Font>; pdfFonts: Record<FontRole, fontkit.Font>; covers(cp: number): boolean }
let unicode: Unicode | null | undefined;
function unicodeFonts(): Unicode | null {
  if (unicode !== undefined) return unicode;
  unicode = null;
  for (const dir of FONT_DIRS) {
    if (!dir) continue;
    try {
      const files = Object.fromEntries(Object.entries(FONT_FILES).map(([r, f]) => [r, fs.readFileSync(`${dir}/${f}`)])) as Record<FontRole, Buffer>;
      const fonts = Object.fromEntries(Object.entries(files).map(([r, b]) => [r, fontkit.create(b)])) as Record<FontRole, fontkit.Font>;
      // fontkit caches a glyph object with the code points it was first asked for; a glyph first
      // reached as a component of an accented one (z inside ź) would be cached without any and
      // miss from the PDF's ToUnicode map, so text extraction (copy, search, screen readers)
      // would drop it. Asking once for the letters such components are (Latin, Greek, Cyrillic)
      // fixes their code points for good; ligatures and Arabic presentation forms are left to
      // the layout, which gives them the characters they stand for.
      const BASES = [[0x20, 0x24f], [0x370, 0x4ff]] as const;
      for (const font of Object.values(fonts)) for (const [a, b] of BASES) for (let cp = a; cp <= b; cp++) font.glyphForCodePoint(cp);
      const { regular, bold } = fonts;
      const seen = new Map<number, boolean>();
      const covers = (cp: number) => {
        let ok = seen.get(cp);
        if (ok === undefined) {
          ok = regular.hasGlyphForCodePoint(cp) && bold.hasGlyphForCodePoint(cp);
          seen.set(cp, ok);
        }
        return ok;
      };
      const pdfFonts = Object.fromEntries(Object.entries(fonts).map(([r, f]) => [r, withBidi(f)])) as Record<FontRole, fontkit.Font>;
      unicode = { fonts, pdfFonts, covers };
      return unicode;
    } catch {
      // not in this directory: try the next
    }
  }
  return null;
}
const STANDARD: Record<FontRole, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier' };
const ROLE: Record<NonNullable<TextOpts['font']>, FontRole> = { Helvetica: 'regular', 'Helvetica-Bold': 'bold', Courier: 'mono' };

/** The font for a role in this document (registered on first use by newDoc). */
export function fontName(role: FontRole): string {
  return unicodeFonts() ? `atrium-${role}` : STANDARD[role];
}

/** Whether documents embed a Unicode font (else text is reduced to WinAnsi). */
export const hasUnicodeFont = () => unicodeFonts() !== null;

/** The parsed font of a role as fontkit reads it, without the bidi wrapper (tests compare with it). */
export const rawUnicodeFont = (role: FontRole): fontkit.Font | null => unicodeFonts()?.fonts[role] ?? null;

export function addPage(doc: Doc): void {
  doc.addPage({ size: 'A4', margin: MARGIN });
}

// The 14 standard PDF fonts only cover WinAnsi (Latin-1 plus a few typographic signs); pdfkit
// writes garbage for anything else. Rather than ship a font, characters outside it are reduced to
// their base letter (é stays, ő → o, Ł → L) and what has none becomes "?". A name in another
// script thus prints as question marks, not as wrong letters.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const NO_DECOMPOSITION: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ø: 'O', ø: 'o', ı: 'i', Œ: 'OE', œ: 'oe' };
const representable = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch);
};

export function printable(text: string): string {
  const u = unicodeFonts();
  if (u) {
    // Control characters and unpaired surrogates never reach the PDF; variation selectors and
    // zero-width joiners of emoji sequences are dropped with the emoji they belong to. Bidi
    // controls (RLM, RLE …) are kept: they steer the visual order and are never drawn (bidi.ts).
    let out = '';
    for (const ch of text.replace(/[\t\r\n]+/g, ' ').normalize('NFC')) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff)) continue;
      if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
      out += u.covers(cp) || isBidiControl(ch) || symbolCovers(cp) ? ch : '?';
    }
    return out;
  }
  let out = '';
  for (const ch of text.replace(/[\t\r\n]+/g, ' ')) {
    if (isBidiControl(ch)) continue; // invisible; right-to-left letters print as "?" here anyway
    if (representable(ch)) out += ch;
    else if (NO_DECOMPOSITION[ch]) out += NO_DECOMPOSITION[ch];
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base && [...base].every(representable) ? base : '?';
    }
  }
  return out;
}

export interface TextOpts {
  font?: 'Helvetica' | 'Helvetica-Bold' | 'Courier';
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'center' | 'right';
  /** Lines at most; longer text is cut with an ellipsis (never flows onto a new page). */
  lines?: number;
}

/** Writes text at (x, y) and returns the y below it. */
export function text(doc: Doc, value: string, x: number, y: number, o: TextOpts = {}): number {
  const size = o.size ?? 10;
  const width = o.width ?? A4.width - MARGIN - x;
  doc.font(fontName(ROLE[o.font ?? 'Helvetica'])).fontSize(size).fillColor(o.color ?? 'black');
  const s = printable(value);
  // features: undefined for left-to-right text, else bidi.ts's marker (pdfkit passes it to the font).
  const features = bidiFeatures(s) as PDFKit.Mixins.TextOptions['features'];
  const opts = { width, align: o.align ?? 'left', height: size * 1.25 * (o.lines ?? 1), ellipsis: true, lineGap: 0, features } as const;
  const h = Math.min(doc.heightOfString(s, opts), opts.height);
  const u = unicodeFonts();
  const runs = u ? symbolRuns(s, (cp) => u.covers(cp) || isBidiControl(String.fromCodePoint(cp))) : [];
  if (runs.length <= 1 && !runs[0]?.symbol) doc.text(s, x, y, opts);
  else {
    // Emoji and symbols: the runs are written one after the other, each in its font, as one
    // paragraph (pdfkit's `continued` keeps wrapping, alignment and the line limit).
    if (!symbolDocs.has(doc)) {
      doc.registerFont(SYMBOL_FONT, symbolFont() as unknown as Buffer);
      symbolDocs.add(doc);
    }
    const textFont = fontName(ROLE[o.font ?? 'Helvetica']);
    runs.forEach((run, i) => {
      doc.font(run.symbol ? SYMBOL_FONT : textFont);
      const more = { ...opts, features: run.symbol ? undefined : (bidiFeatures(run.text) as PDFKit.Mixins.TextOptions['features']), continued: i < runs.length - 1 };
      if (i === 0) doc.text(run.text, x, y, more);
      else doc.text(run.text, more);
    });
    doc.font(textFont);
  }
  return y + h;
}

// Documents that have the fallback font registered (on their first symbol).
const symbolDocs = new WeakSet<Doc>();

/** Large diagonal, semi-transparent word across the page (VOID, CANCELLED). */
export function stamp(doc: Doc, word: string): void {
  const { width, height } = doc.page;
  const size = word.length > 9 ? 70 : word.length > 5 ? 90 : 150;
  doc.save();
  doc.rotate(-40, { origin: [width / 2, height / 2] });
  doc.font(fontName('bold')).fontSize(size).fillColor(RED).fillOpacity(0.3);
  // Wider than the page so rotation never wraps the word; drawn without flowing to a new page.
  const s = printable(word);
  doc.text(s, -width / 2, height / 2 - size / 2, { width: width * 2, align: 'center', lineBreak: false, features: bidiFeatures(s) as PDFKit.Mixins.TextOptions['features'] });
  doc.restore();
  doc.fillOpacity(1);
}

export function rule(doc: Doc, y: number, x1 = MARGIN, x2 = A4.width - MARGIN): void {
  doc.moveTo(x1, y).lineTo(x2, y).lineWidth(0.5).strokeColor('#999999').stroke();
}
