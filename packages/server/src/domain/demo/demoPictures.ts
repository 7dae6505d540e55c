// Pictures for the demo catalogue, drawn at seed time from shapes made in code (a gradient sky,
// hills, a sun and a framed "artwork"), so the repository holds no binary file. Each record gets
// its own colours from its id and kind. Licence: the project's own, like the code that draws them.
import sharp from 'sharp';
import { recordsWithoutPicture } from '../../db/repositories/media.ts';
import type { Ctx } from '../context.ts';
import { attachPicture } from '../media/uploadMedia.ts';

const HUES = { museum: 210, exhibition: 280, ticket: 30, event: 340, tour: 140 } as const;

/** An 1200 × 800 scene as SVG text; only numbers from the arguments reach it. */
export function demoSvg(kind: keyof typeof HUES, id: number): string {
  const hue = (HUES[kind] + id * 37) % 360;
  const sun = 150 + ((id * 97) % 900);
  const hill = (h: number, y: number, l: number) =>
    `<path d="M0 ${y} Q 300 ${y - 120} 600 ${y - 20} T 1200 ${y - 60} V 800 H 0 Z" fill="hsl(${h},45%,${l}%)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="hsl(${hue},70%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,92%)"/></linearGradient></defs>
<rect width="1200" height="800" fill="url(#sky)"/>
<circle cx="${sun}" cy="190" r="90" fill="hsl(${(hue + 180) % 360},85%,70%)"/>
${hill((hue + 90) % 360, 600, 45)}${hill((hue + 120) % 360, 700, 32)}
<rect x="420" y="250" width="360" height="260" fill="hsl(${hue},20%,96%)" stroke="hsl(${hue},35%,25%)" stroke-width="18"/>
<rect x="470" y="300" width="260" height="160" fill="hsl(${(hue + 200) % 360},55%,55%)"/>
</svg>`;
}

/** Gives every catalogue record without a picture a drawn one; returns how many it attached. */
export async function seedDemoPictures(ctx: Ctx): Promise<number> {
  const records = await recordsWithoutPicture(ctx.db);
  for (const r of records) {
    const bytes = await sharp(Buffer.from(demoSvg(r.type, r.id))).png().toBuffer();
    const title = r.title.de ?? r.title.en ?? Object.values(r.title)[0] ?? null;
    await attachPicture(ctx, {
      accountId: null, type: r.type, targetId: r.id, title, description: null,
      copyright: 'Atrium demo picture, drawn by the project', bytes,
    });
  }
  return records.length;
}
