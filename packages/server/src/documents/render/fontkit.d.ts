// fontkit (pdfkit's font engine) ships no type declarations; pdf.ts asks a font whether it has a
// glyph and hands the parsed font to pdfkit, bidi.ts lays out runs with an explicit direction,
// tests compare glyph outlines.
declare module 'fontkit' {
  export interface Glyph {
    id: number;
    path: { toSVG(): string };
  }
  export interface GlyphRun {
    glyphs: unknown[];
    positions: Array<{ xAdvance: number }>;
    readonly advanceWidth: number;
  }
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    /** Direction defaults to that of the script of the first letter (and reverses RTL runs). */
    layout(text: string, features?: unknown, script?: string, language?: string, direction?: 'ltr' | 'rtl'): GlyphRun;
    readonly characterSet: number[];
    glyphForCodePoint(codePoint: number): Glyph;
    getGlyph(id: number): Glyph;
  }
  export function create(buffer: Buffer): Font;
}
