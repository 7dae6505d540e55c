// Pictures: uploads per second through POST /api/v4/media (a 1200 × 800 JPEG: type check, full
// decode, ten variants, files and row) and variant serving (GET /media/<key>/teaser.jpg), each
// as a ratio to a static file route of the same server in the same run (the console's CSS,
// served from memory with its own cache headers).
//   npx tsx bench/media.ts     BENCH_SECONDS (6), BENCH_CONNECTIONS (50), BENCH_UPLOADERS (2)
// Writes bench/results/media.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { systemClock } from '../packages/server/src/domain/clock.ts';
import { createToken } from '../packages/server/src/domain/accounts/createToken.ts';
import { museums } from '../packages/server/src/db/schema/index.ts';
import { benchDatabase } from './lib/db.ts';
import { load, type LoadResult } from './lib/load.ts';
import { startAtrium } from './lib/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 2);
const here = path.dirname(fileURLToPath(import.meta.url));

const db = await benchDatabase();
const [museum] = await db.database.db.insert(museums).values({ title: { de: 'Bench' }, timeZone: 'Europe/Berlin', openingHours: [null, null, null, null, null, null, null] }).returning();
const { token } = await createToken({ db: db.database.db, clock: systemClock }, { class: 'user', name: 'bench-media', rights: ['*'] });
const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-media-'));
const server = await startAtrium(db.url, { ATRIUM_MEDIA_DIR: mediaDir, ATRIUM_MEDIA_QUOTA: '0', ATRIUM_CONSOLE: 'true' });

// Distinct pictures, so no upload is a repeat of another's bytes.
async function picture(i: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="hsl(${i % 360},60%,60%)"/><circle cx="${(i * 37) % 1200}" cy="400" r="200" fill="hsl(${(i + 180) % 360},70%,50%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

async function upload(bytes: Buffer): Promise<{ teaser: string }> {
  const form = new FormData();
  form.set('target_type', 'museum');
  form.set('target_id', String(museum!.id));
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'bench.jpg');
  const res = await fetch(`${server.base}/api/v4/media`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { media: { picture: { teaser: string } } }).media.picture;
}

async function uploadsPerSecond(): Promise<{ perSecond: number; count: number }> {
  const pictures = await Promise.all(Array.from({ length: 64 }, (_, i) => picture(i)));
  await upload(pictures[0]!); // warm-up
  let count = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(Array.from({ length: UPLOADERS }, async (_, w) => {
    for (let i = w; Date.now() < until; i += UPLOADERS) {
      await upload(pictures[(i + 1) % pictures.length]!);
      count++;
    }
  }));
  return { perSecond: count / ((Date.now() - started) / 1000), count };
}

async function measure(url: string): Promise<LoadResult> {
  await load({ url, connections: CONNECTIONS, seconds: 1 });
  return load({ url, connections: CONNECTIONS, seconds: SECONDS });
}

try {
  const staticUrl = `${server.base}/console/assets/console.css`;
  // Static, variant, static again: the ratio uses the two static runs around the variant run.
  const up = await uploadsPerSecond();
  const { teaser } = await upload(await picture(999));
  const staticBefore = await measure(staticUrl);
  const variant = await measure(`${server.base}${teaser}`);
  const staticAfter = await measure(staticUrl);
  const staticRps = (staticBefore.rps + staticAfter.rps) / 2;
  const rows = [
    { scenario: `uploads, 1200×800 JPEG, ${UPLOADERS} at a time`, figure: `${up.perSecond.toFixed(1)}/s (${up.count} in ${SECONDS} s)`, ratio: up.perSecond / staticRps },
    { scenario: 'GET /media/<key>/teaser.jpg', figure: `${Math.round(variant.rps)} req/s, p99 ${variant.p99} ms`, ratio: variant.rps / staticRps },
    { scenario: 'static route /console/assets/console.css (before, after)', figure: `${Math.round(staticBefore.rps)}, ${Math.round(staticAfter.rps)} req/s`, ratio: 1 },
  ];
  console.log('| Scenario | Figure | Ratio to the static route |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.scenario} | ${r.figure} | ${r.ratio.toFixed(4)} |`);
  fs.mkdirSync(path.join(here, 'results'), { recursive: true });
  fs.writeFileSync(path.join(here, 'results/media.json'), JSON.stringify({ rows, staticRps, variant, uploads: up }, null, 2));
} finally {
  await server.stop();
  await db.dispose();
  fs.rmSync(mediaDir, { recursive: true, force: true });
}
