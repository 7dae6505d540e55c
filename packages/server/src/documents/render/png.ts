// A minimal PNG writer for black-and-white module grids (barcodes). bwip-js' own PNG drawing
// (PostScript-style rasteriser plus a pure-JS deflate) costs 15-30 ms per code, most of a ticket
// page's budget; scaling a module grid into 8-bit grayscale rows and deflating them with
// node:zlib costs well under a millisecond. Output: colour type 0 (gray), bit depth 8, no
// interlace, filter 0 on every row: exactly the kind of PNG pdfkit embeds without re-encoding.
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

/** Encodes 8-bit grayscale pixels (row-major, `width * height` bytes) as a PNG. */
export function grayPng(width: number, height: number, pixels: Uint8Array): Buffer {
  if (pixels.length !== width * height) throw new Error('grayPng: pixel count does not match the size');
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A module grid (true = dark), each module drawn as `scale.x` × `scale.y` pixels, with `quiet`
 * light modules around it (the quiet zone scanners need), as a PNG.
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
  const px = new Uint8Array(w * h).fill(255);
  for (let my = 0; my < rows; my++) {
    for (let mx = 0; mx < cols; mx++) {
      if (!dark(mx, my)) continue;
      const x0 = (mx + quiet.x) * scale.x;
      for (let y = (my + quiet.y) * scale.y, yEnd = y + scale.y; y < yEnd; y++) px.fill(0, y * w + x0, y * w + x0 + scale.x);
    }
  }
  return grayPng(w, h, px);
}
