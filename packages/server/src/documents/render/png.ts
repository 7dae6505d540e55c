// A minimal PNG writer for black-and-white module grids (barcodes). bwip-js' own PNG drawing
// (PostScript-style rasteriser plus a pure-JS deflate) was most of a ticket page's rendering
// time; packing a module grid into 1-bit rows and deflating them with node:zlib is far cheaper.
// Output: colour type 0 (gray), bit depth 1, no interlace, filter 0 on every row: the kind of
// PNG pdfkit embeds without re-encoding (no alpha, no palette).
import zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A module grid (true = dark), each module drawn as `scale.x` × `scale.y` pixels, with `quiet`
 * light modules around it (the quiet zone scanners need), as a 1-bit grayscale PNG. One bit per
 * pixel keeps the data to deflate 8× smaller than 8-bit gray; identical rows are built once.
 */
export function gridPng(
  cols: number,
  rows: number,
  dark: (x: number, y: number) => boolean,
  scale: { x: number; y: number },
  quiet: { x: number; y: number },
): Buffer {
  const w = (cols + 2 * quiet.x) * scale.x;
  const h = (rows + 2 * quiet.y) * scale.y;
  const stride = Math.ceil(w / 8) + 1; // filter byte + packed pixels, MSB first, 1 = white
  const raw = Buffer.alloc(stride * h);
  const light = Buffer.alloc(stride, 0xff);
  light[0] = 0; // filter: none
  for (let y = 0; y < h; y++) light.copy(raw, y * stride);
  for (let my = 0; my < rows; my++) {
    const line = Buffer.from(light);
    for (let mx = 0; mx < cols; mx++) {
      if (!dark(mx, my)) continue;
      for (let x = (mx + quiet.x) * scale.x, xEnd = x + scale.x; x < xEnd; x++) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    for (let y = (my + quiet.y) * scale.y, yEnd = y + scale.y; y < yEnd; y++) line.copy(raw, y * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
