// The fallback font for what the text font (DejaVu Sans, pdf.ts) has no glyph for: emoji and
// other symbols in a customer's or a title's text used to print as "?". Symbola (Debian's
// fonts-symbola, "free for any use") is monochrome and covers the emoji and symbol blocks;
// ATRIUM_PDF_SYMBOL_FONT names another TrueType file. It is parsed on the first character that
// needs it (a 3 MB font most documents never use) and embedded as a subset like the text font.
import fs from 'node:fs';
import * as fontkit from 'fontkit';

const SYMBOL_FILES = [
  process.env.ATRIUM_PDF_SYMBOL_FONT,
  '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf',
  '/usr/share/fonts/truetype/symbola/Symbola.ttf',
  '/usr/share/fonts/TTF/Symbola.ttf',
];

export const SYMBOL_FONT = 'atrium-symbols';

let symbols: fontkit.Font | null | undefined;
const seen = new Map<number, boolean>();

/** The parsed fallback font, or null when none is installed. */
export function symbolFont(): fontkit.Font | null {
  if (symbols !== undefined) return symbols;
  symbols = null;
  for (const file of SYMBOL_FILES) {
    if (!file) continue;
    try {
      const font = fontkit.create(fs.readFileSync(file));
      // A collection (.ttc) has no glyphs of its own; the fallback is a single face.
      if ('glyphForCodePoint' in font) {
        symbols = font as fontkit.Font;
        break;
      }
    } catch {
      // not there: try the next
    }
  }
  return symbols ?? null;
}

/** Whether the fallback font draws this code point (letters and spaces stay with the text font). */
export function symbolCovers(cp: number): boolean {
  let ok = seen.get(cp);
  if (ok === undefined) {
    ok = cp > 0x2000 && !!symbolFont()?.hasGlyphForCodePoint(cp);
    seen.set(cp, ok);
  }
  return ok;
}

/** The text cut into runs for the text font and for the fallback font, in order. */
export function symbolRuns(text: string, textCovers: (cp: number) => boolean): Array<{ text: string; symbol: boolean }> {
  const runs: Array<{ text: string; symbol: boolean }> = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const symbol = !textCovers(cp) && symbolCovers(cp);
    const last = runs.at(-1);
    if (last && last.symbol === symbol) last.text += ch;
    else runs.push({ text: ch, symbol });
  }
  return runs;
}
