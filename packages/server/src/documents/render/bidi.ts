// Right-to-left and mixed lines in the PDFs: the Unicode Bidirectional Algorithm (UAX #9, via
// bidi-js) decides the visual order, fontkit shapes. Who does what (docs/adr/0025-*.md):
// - pdfkit wraps the logical text into lines. Without `features` it lays a line out word by
//   word (cut after every space) and puts the words left to right in logical order.
// - fontkit lays out one string at a time. Unless told, it takes the direction from the script
//   of the string's first letter and, for a right-to-left script, shapes it (Arabic letters
//   joined) in logical order and then reverses all its glyphs, spaces and brackets included.
//   That reversal is all the reordering it does; it mirrors no bracket (DejaVu has no rtlm).
// Together, "שרה כהן" became " הרש" + "ןהכ": each word mirrored on its own, the words still left
// to right, the space at the left end. Here a text that needs the algorithm gets a marker in
// pdfkit's `features`; pdfkit then hands fontkit each whole line, and the font wrapper below
// resolves the line's levels, orders its level runs visually (rules L1, L2), mirrors brackets in
// right-to-left runs (L4) and lets fontkit shape each run in logical order with the run's
// direction given explicitly, so fontkit's own reversal is the only one a run gets (our layer
// orders runs, never the glyphs inside one). Pure left-to-right text keeps the old path.
import bidiModule from 'bidi-js';
import type * as fontkit from 'fontkit';

// bidi-js is CommonJS (module.exports = the factory) typed as an ES default export, so under
// NodeNext TypeScript sees the factory on .default; at run time the import is the factory itself.
type Factory = typeof bidiModule.default;
const bidiFactory: Factory = (bidiModule as unknown as { default?: Factory }).default ?? (bidiModule as unknown as Factory);
const bidi = bidiFactory();

type Direction = 'ltr' | 'rtl';
/** Markers passed as pdfkit's `features`: the paragraph direction of the text being drawn. */
const PARAGRAPH: Record<Direction, object> = { ltr: Object.freeze({}), rtl: Object.freeze({}) };

// Characters of bidi class R, AL or AN (Hebrew, Arabic, Syriac, Thaana, N'Ko … and their
// presentation forms; the historic right-to-left scripts of planes 1) and the explicit
// right-to-left and embedding controls. Without any of them every level is even and the visual
// order is the logical one, so the algorithm is skipped: a cheap test for the common case.
const NEEDS_BIDI = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
// Formatting characters that steer the algorithm but are never drawn (X9 and isolates).
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Whether a character is such a control (kept by printable(), unlike other invisibles). */
export const isBidiControl = (ch: string) => CONTROLS.test(ch);
// Bidi classes rule L1 resets at the end of a line: separators, whitespace, controls.
const TRAILING = new Set(['S', 'WS', 'B', 'LRI', 'RLI', 'FSI', 'PDI', 'BN', 'RLE', 'LRE', 'RLO', 'LRO', 'PDF']);

/**
 * pdfkit `features` for a text: undefined when it is purely left to right (pdfkit's usual,
 * cached word-by-word layout), else the marker of its paragraph direction: that of its first
 * strong letter (P2, P3), left to right when it has none (the documents are left to right).
 */
export function bidiFeatures(text: string): object | undefined {
  if (!NEEDS_BIDI.test(text)) return undefined;
  return PARAGRAPH[bidi.getEmbeddingLevels(text).paragraphs[0]?.level === 1 ? 'rtl' : 'ltr'];
}

/**
 * The font pdfkit is given: the parsed fontkit font with `layout` replaced. Calls without a
 * marker go to fontkit unchanged; marked ones get one line in visual order.
 */
export function withBidi(font: fontkit.Font): fontkit.Font {
  const wrapped = Object.create(font) as fontkit.Font;
  wrapped.layout = (text: string, features?: unknown) => {
    if (features === PARAGRAPH.rtl) return layoutLine(font, text, 'rtl');
    if (features === PARAGRAPH.ltr) return layoutLine(font, text, 'ltr');
    return font.layout(text, features as Parameters<fontkit.Font['layout']>[1]);
  };
  return wrapped;
}

/** One line: level runs in visual order, each shaped by fontkit in its own direction. */
function layoutLine(font: fontkit.Font, line: string, paragraph: Direction): fontkit.GlyphRun {
  const glyphs: fontkit.GlyphRun['glyphs'] = [];
  const positions: fontkit.GlyphRun['positions'] = [];
  for (const run of visualRuns(line, paragraph)) {
    const shaped = font.layout(run.text, undefined, undefined, undefined, run.rtl ? 'rtl' : 'ltr');
    glyphs.push(...shaped.glyphs);
    positions.push(...shaped.positions);
  }
  // pdfkit scales the positions in place after this returns, so the width is summed on demand.
  // pdfkit reads only these three fields of a run (@types/fontkit declares more).
  return { glyphs, positions, get advanceWidth() { return positions.reduce((w, p) => w + p.xAdvance, 0); } } as fontkit.GlyphRun;
}

interface VisualRun { text: string; rtl: boolean }

/** The line's level runs left to right, in logical order inside each, brackets mirrored. */
export function visualRuns(line: string, paragraph: Direction): VisualRun[] {
  const { levels } = bidi.getEmbeddingLevels(line, paragraph);
  // L1 puts whitespace at the end of a line (pdfkit leaves the one it broke at) at the paragraph
  // level: on a right-to-left line, at the left end, where it would indent the line. It is
  // invisible, so it is not drawn at all (right-aligned text is placed without it, too).
  let end = line.length;
  while (end > 0 && TRAILING.has(bidi.getBidiCharTypeName(line[end - 1]!))) end--;
  const runs: Array<VisualRun & { level: number }> = [];
  for (let i = 0; i < end; ) {
    const level = levels[i]!;
    let j = i;
    let text = '';
    for (; j < end && levels[j] === level; j++) {
      const ch = line[j]!;
      if (CONTROLS.test(ch)) continue; // steered the levels; not drawn
      text += level & 1 ? (bidi.getMirroredCharacter(ch) ?? ch) : ch;
    }
    if (text) runs.push({ text, rtl: (level & 1) === 1, level });
    i = j;
  }
  // L2: from the highest level down to the lowest odd one, reverse every stretch of runs at that
  // level or higher. Glyphs inside a right-to-left run are reversed by fontkit, not here.
  const max = Math.max(0, ...runs.map((r) => r.level));
  const minOdd = Math.min(...runs.map((r) => r.level | 1));
  for (let lvl = max; lvl >= minOdd; lvl--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i]!.level < lvl) continue;
      let j = i;
      while (j + 1 < runs.length && runs[j + 1]!.level >= lvl) j++;
      runs.splice(i, j - i + 1, ...runs.slice(i, j + 1).reverse());
      i = j;
    }
  }
  return runs;
}
