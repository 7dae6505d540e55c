// fontkit (pdfkit's font engine) ships no type declarations; pdf.ts only asks a font whether it
// has a glyph, and hands the parsed font to pdfkit.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): unknown;
    readonly characterSet: number[];
    glyphForCodePoint(codePoint: number): unknown;
  }
  export function create(buffer: Buffer): Font;
}
