// The glyphs of a PDF in the order they are drawn, read back as characters: what a person sees,
// left to right, line by line. pdftotext cannot tell this: poppler reorders right-to-left text
// into its own guess of the logical order, so a line drawn in the wrong visual order can still
// extract "right". Here each glyph id of a text block (BT … ET, which pdfkit writes once per
// drawn line) is mapped back through its font's ToUnicode CMap, in content-stream order. pdfkit
// draws a line left to right in one block, so the result is the line's visual order. The
// outlines of the drawn glyphs come from the font program embedded in the PDF.
// Reads pdfkit's own object layout only ("N 0 obj\n<<\n…\n>>\nstream\n…"), Flate or plain.
import zlib from 'node:zlib';
import * as fontkit from 'fontkit';

interface Obj { dict: string; stream: Buffer | null }

function objects(pdf: Buffer): Map<number, Obj> {
  const s = pdf.toString('latin1'); // 1 char = 1 byte: string offsets are byte offsets
  const out = new Map<number, Obj>();
  const re = /(\d+) 0 obj\n<<\n([\s\S]*?)\n>>\n(stream\n|endobj)/g;
  for (let m; (m = re.exec(s)); ) {
    let stream: Buffer | null = null;
    if (m[3] === 'stream\n') {
      const len = Number(/\/Length (\d+)/.exec(m[2]!)![1]);
      const start = m.index + m[0].length;
      const raw = pdf.subarray(start, start + len);
      stream = /\/Filter \/FlateDecode/.test(m[2]!) ? zlib.inflateSync(raw) : raw;
      re.lastIndex = start + len;
    }
    out.set(Number(m[1]), { dict: m[2]!, stream });
  }
  return out;
}

const hexChars = (hex: string) => String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));

/** glyph id → characters, from a ToUnicode CMap (bfchar and bfrange, both forms). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const [, body] of cmap.matchAll(/beginbfrange\n([\s\S]*?)endbfrange/g)) {
    for (const [, a, b, list, single] of body!.matchAll(/<([0-9a-f]+)> <([0-9a-f]+)> (?:\[([^\]]*)\]|<([0-9a-f]+)>)/gi)) {
      const from = parseInt(a!, 16);
      const to = parseInt(b!, 16);
      const items = list ? [...list.matchAll(/<([0-9a-f]*)>/gi)].map((x) => x[1]!) : null;
      for (let g = from; g <= to; g++) {
        if (items) map.set(g, hexChars(items[g - from]!));
        else map.set(g, String.fromCodePoint(parseInt(single!, 16) + g - from));
      }
    }
  }
  for (const [, body] of cmap.matchAll(/beginbfchar\n([\s\S]*?)endbfchar/g)) {
    for (const [, g, u] of body!.matchAll(/<([0-9a-f]+)> <([0-9a-f]*)>/gi)) map.set(parseInt(g!, 16), hexChars(u!));
  }
  return map;
}

export interface DrawnLine {
  /** The glyphs as characters, left to right. */
  text: string;
  /** Per glyph: its outline (SVG path of the embedded subset font), to tell shaped forms apart. */
  outlines(): string[];
}

/** Per page, the text blocks as drawn, in drawing order. */
export function drawnLines(pdf: Buffer): DrawnLine[][] {
  const objs = objects(pdf);
  const fonts = new Map<string, { map: Map<number, string>; id: number }>(); // resource name (/F3) → font
  const programs = new Map<number, fontkit.Font>();
  const program = (id: number) => {
    // Type0 font → its CIDFont → descriptor → FontFile2 (the TrueType subset pdfkit embedded).
    if (!programs.has(id)) {
      const cid = objs.get(Number(/\/DescendantFonts \[(\d+) 0 R\]/.exec(objs.get(id)!.dict)![1]))!.dict;
      const desc = objs.get(Number(/\/FontDescriptor (\d+) 0 R/.exec(cid)![1]))!.dict;
      programs.set(id, fontkit.create(objs.get(Number(/\/FontFile2 (\d+) 0 R/.exec(desc)![1]))!.stream!));
    }
    return programs.get(id)!;
  };
  const pagesDict = [...objs.values()].find((o) => /\/Type \/Pages\b/.test(o.dict))!.dict;
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(pagesDict)![1]!).matchAll(/(\d+) 0 R/g)].map((m) => objs.get(Number(m[1]))!.dict);
  return kids.map((page) => {
    const res = objs.get(Number(/\/Resources (\d+) 0 R/.exec(page)![1]))!.dict;
    for (const [, name, id] of (/\/Font <<([\s\S]*?)>>/.exec(res)?.[1] ?? '').matchAll(/\/(\w+) (\d+) 0 R/g)) {
      if (fonts.has(name!)) continue;
      const cmap = /\/ToUnicode (\d+) 0 R/.exec(objs.get(Number(id))!.dict);
      fonts.set(name!, { map: cmap ? toUnicode(objs.get(Number(cmap[1]))!.stream!.toString('latin1')) : new Map(), id: Number(id) });
    }
    const content = objs.get(Number(/\/Contents (\d+) 0 R/.exec(page)![1]))!.stream!.toString('latin1');
    const lines: DrawnLine[] = [];
    for (const [, block] of content.matchAll(/\nBT\n([\s\S]*?)\nET/g)) {
      const font = fonts.get(/\/(\w+) [\d.]+ Tf/.exec(block!)![1]!)!;
      const gids: number[] = [];
      for (const [, arr] of block!.matchAll(/\[([^\]]*)\] TJ/g)) {
        for (const [, hex] of arr!.matchAll(/<([0-9a-f]*)>/gi)) for (const g of hex!.match(/.{4}/g) ?? []) gids.push(parseInt(g, 16));
      }
      lines.push({
        text: gids.map((g) => font.map.get(g) ?? '\ufffd').join(''),
        outlines: () => gids.map((g) => program(font.id).getGlyph(g).path.toSVG()),
      });
    }
    return lines;
  });
}
