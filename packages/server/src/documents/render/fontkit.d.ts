// fontkit (pdfkit's font engine) ships no type declarations; pdf.ts only asks a font whether it
// has a glyph.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
