// The /scan page in a real headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// Chromium's fake camera plays a video made here from a ticket's QR code (drawn by qrPng, the
// function whose PNG the ticket PDF embeds), the page decodes it with zxing-wasm served by this
// server, shows green, and on the second read of the same ticket red `already_used`. Screenshots
// of both go to docs/images/ (with ATRIUM_UPDATE_SCREENSHOTS=1). Skipped with a message when Chromium is missing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { qrPng } from '../../src/documents/render/codes.ts';
import { serverRoot } from '../cli/cli.ts';
import { entryFixture, type EntryFixture } from '../entry/support.ts';

// Screenshots refresh docs/images/ only when asked (ATRIUM_UPDATE_SCREENSHOTS=1), so a test run
// never dirties the checkout; otherwise they go to the OS temp directory.
const shot = (name: string) =>
  process.env.ATRIUM_UPDATE_SCREENSHOTS === '1' ? path.join(serverRoot, '../../docs/images', name) : path.join(tmpdir(), `atrium-${name}`);

const CHROMIUM = '/usr/bin/chromium';
const W = 640;
const H = 480;

/** A YUV4MPEG2 (C420) video of `frames` identical frames: the PNG centred on white, scaled up. */
function y4mOf(png: Buffer, frames = 10): Buffer {
  const img = PNG.sync.read(png);
  const scale = Math.max(1, Math.floor(Math.min((W - 40) / img.width, (H - 40) / img.height)));
  const ox = Math.floor((W - img.width * scale) / 2);
  const oy = Math.floor((H - img.height * scale) / 2);
  const y = Buffer.alloc(W * H, 235); // white in video range
  for (let py = 0; py < img.height * scale; py++) {
    for (let px = 0; px < img.width * scale; px++) {
      const i = ((Math.floor(py / scale) * img.width + Math.floor(px / scale)) * 4);
      const lum = (img.data[i]! * 299 + img.data[i + 1]! * 587 + img.data[i + 2]! * 114) / 1000;
      y[(oy + py) * W + ox + px] = Math.round(16 + (lum * 219) / 255);
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128); // no colour
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

let x: EntryFixture;
let base = '';
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-scan-'));
before(async () => {
  x = await entryFixture();
  // The browser stamps scans with the real time; the server's clock must run with it.
  x.t.clock.now = () => new Date();
  base = await x.t.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await x.t.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the scanner page reads a ticket QR code from the camera: green, then red already_used', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: install the Debian package chromium to run the browser tests`);
    return;
  }
  const { chromium } = await import('playwright-core');
  // A tour that started a minute ago: its entry window is open now, whatever the time of day.
  const { codes } = await x.buy([{ type: 'Tour', id: x.tourId, quantity: 1, startAt: new Date(Date.now() - 60_000) }]);
  const video = path.join(dir, 'ticket.y4m');
  writeFileSync(video, y4mOf(qrPng(codes[0]!)));

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 480, height: 800 } });
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    const outside: string[] = [];
    page.on('request', (r) => !r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:') && outside.push(r.url()));

    const res = await page.goto(`${base}/scan`);
    assert.match(res!.headers()['content-security-policy']!, /script-src 'self' 'wasm-unsafe-eval'/);
    await page.fill('#token', x.gateA);
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer.valid:not([hidden])', { timeout: 60_000 });
    assert.equal(await page.textContent('#answer-reason'), 'valid');
    assert.equal(await page.textContent('#answer-ticket'), 'Gruppenführung');
    await page.screenshot({ path: shot('scan-valid.png') });

    await page.waitForSelector('#answer.refused:not([hidden])', { timeout: 60_000 });
    assert.equal(await page.textContent('#answer-reason'), 'already_used');
    assert.equal(await page.textContent('#answer-message'), 'Bereits benutzt');
    await page.screenshot({ path: shot('scan-already-used.png') });

    assert.deepEqual(outside, [], 'the page loads nothing from elsewhere');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
