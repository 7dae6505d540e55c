// The machine-readable codes on a ticket: a CODE128 barcode (what hand scanners at the gate read)
// and a QR code (what phone cameras read), both encoding the admission's barcode string.
// bwip-js encodes the symbols (`raw`: the module grid of the QR code, the bar/space widths of
// CODE128); png.ts draws them, because bwip-js' own PNG output is ~50x slower (see png.ts). The
// PNGs are grayscale without alpha, which pdfkit embeds as they are: the compressed pixel data in
// the PDF is exactly the IDAT data of the PNG returned here (the render tests decode the codes
// straight out of the PDF on that basis).
import bwipjs from 'bwip-js';
import { gridPng } from './png.ts';

interface RawMatrix {
  pixs: number[];
  pixx: number;
  pixy: number;
}
interface RawLinear {
  sbs: number[];
}

// The typings only describe the render options, not raw()'s result.
const raw = (opts: Record<string, unknown>) => (bwipjs.raw as unknown as (o: Record<string, unknown>) => unknown[])(opts)[0];

/** 3 px per module keeps bars crisp when the PDF scales the image; bars are 150 px tall. */
const BAR_SCALE = { x: 3, y: 150 };

/** CODE128 of `text` as a grayscale PNG with a 10-module quiet zone either side. No human-readable text. */
export function barcodePng(text: string): Buffer {
  const { sbs } = raw({ bcid: 'code128', text }) as RawLinear;
  // sbs alternates bar, space, bar … widths in modules, starting with a bar.
  const dark: boolean[] = [];
  sbs.forEach((width, i) => {
    for (let k = 0; k < width; k++) dark.push(i % 2 === 0);
  });
  return gridPng(dark.length, 1, (x) => dark[x]!, BAR_SCALE, { x: 10, y: 0 });
}

/** QR code (error correction M) of `text` as a grayscale PNG; 4 px per module, 4-module quiet zone. */
export function qrPng(text: string): Buffer {
  const m = raw({ bcid: 'qrcode', text, eclevel: 'M' }) as RawMatrix;
  return gridPng(m.pixx, m.pixy, (x, y) => m.pixs[y * m.pixx + x] === 1, { x: 4, y: 4 }, { x: 4, y: 4 });
}
