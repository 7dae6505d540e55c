// The /scan page in a real headless Chromium (Debian's, see console-support.ts, through playwright-core):
// the order's ticket PDF is rendered by the production path (loadOrderRenderData → ticketsInput →
// renderTicketsPdf, as the document job does), its first page rasterised with pdftoppm, the QR
// code found on it with jsQR and cut out with its quiet zone, as a phone held to the ticket sees
// it. Chromium's fake camera plays that picture, the page decodes it with zxing-wasm served by
// this server, shows green with the visit time in the page's language and the museum's zone,
// and on the second read of the same ticket red `already_used`. Screenshots of both go to
// docs/images/ (with ATRIUM_UPDATE_SCREENSHOTS=1). Skipped with a message when Chromium or
// pdftoppm is missing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { renderTicketsPdf } from '../../src/documents/render/tickets.ts';
import { systemCtx } from '../../src/domain/context.ts';
import { loadOrderRenderData, ticketsInput } from '../../src/domain/documents/renderInput.ts';
import { serverRoot } from '../cli/cli.ts';
import { entryFixture, type EntryFixture } from '../entry/support.ts';
import { launchChromium, skipWithoutChromium } from './console-support.ts';

// Screenshots refresh docs/images/ only when asked (ATRIUM_UPDATE_SCREENSHOTS=1), so a test run
// never dirties the checkout; otherwise they go to the OS temp directory.
const shot = (name: string) =>
  process.env.ATRIUM_UPDATE_SCREENSHOTS === '1' ? path.join(serverRoot, '../../docs/images', name) : path.join(tmpdir(), `atrium-${name}`);

// jsqr is CommonJS with an ES default export: under Node's ESM loader the function may sit on .default.
type Point = { x: number; y: number };
type JsQr = (data: Uint8ClampedArray, width: number, height: number) =>
  { data: string; location: Record<'topLeftCorner' | 'topRightCorner' | 'bottomLeftCorner' | 'bottomRightCorner', Point> } | null;
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PDFTOPPM = ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm'].find((p) => existsSync(p));
const W = 640;
const H = 480;

/** A YUV4MPEG2 (C420) video of `frames` identical frames: the picture centred on white, scaled to fit. */
function y4mOf(img: PNG, frames = 10): Buffer {
  const scale = Math.min((W - 40) / img.width, (H - 40) / img.height);
  const w = Math.floor(img.width * scale);
  const h = Math.floor(img.height * scale);
  const ox = Math.floor((W - w) / 2);
  const oy = Math.floor((H - h) / 2);
  const y = Buffer.alloc(W * H, 235); // white in video range
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      const i = (Math.floor(py / scale) * img.width + Math.floor(px / scale)) * 4;
      const lum = (img.data[i]! * 299 + img.data[i + 1]! * 587 + img.data[i + 2]! * 114) / 1000;
      y[(oy + py) * W + ox + px] = Math.round(16 + (lum * 219) / 255);
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128); // no colour
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

/** The first page of a PDF as pixels (pdftoppm, 150 dpi). */
function firstPage(pdf: Buffer): PNG {
  const file = path.join(dir, 'ticket.pdf');
  writeFileSync(file, pdf);
  execFileSync(PDFTOPPM!, ['-r', '150', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, 'page')]);
  return PNG.sync.read(readFileSync(path.join(dir, 'page.png')));
}

/** The QR code on a page: what it says, and the code cut out with a margin of half its size. */
function qrOnPage(page: PNG): { text: string; crop: PNG } {
  const found = jsQR(new Uint8ClampedArray(page.data), page.width, page.height);
  assert.ok(found, 'the ticket page shows a readable QR code');
  const xs = [found.location.topLeftCorner.x, found.location.topRightCorner.x, found.location.bottomLeftCorner.x, found.location.bottomRightCorner.x];
  const ys = [found.location.topLeftCorner.y, found.location.topRightCorner.y, found.location.bottomLeftCorner.y, found.location.bottomRightCorner.y];
  const margin = (Math.max(...xs) - Math.min(...xs)) / 2;
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - margin));
  const y0 = Math.max(0, Math.floor(Math.min(...ys) - margin));
  const x1 = Math.min(page.width, Math.ceil(Math.max(...xs) + margin));
  const y1 = Math.min(page.height, Math.ceil(Math.max(...ys) + margin));
  const crop = new PNG({ width: x1 - x0, height: y1 - y0 });
  PNG.bitblt(page, crop, x0, y0, x1 - x0, y1 - y0, 0, 0);
  return { text: found.data, crop };
}

/** axe-core in the page (through the DevTools protocol, which the CSP does not block), colour contrast included. */
async function axeClean(page: import('playwright-core').Page, what: string) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const r = await axe.run(document, { rules: { 'color-contrast': { enabled: true } } });
    return r.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
  assert.deepEqual(found, [], `axe on ${what}`);
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

test('the scanner page: camera read green then red with the time used; English and German, offline pending then verdict, not_entered at the exit; axe with contrast', async (t) => {
  if (skipWithoutChromium(t)) return;
  if (!PDFTOPPM) {
    t.skip('pdftoppm (poppler-utils) is missing: the ticket PDF cannot be rasterised');
    return;
  }
  // A time-slot ticket whose slot began a minute ago: its entry window is open now, whatever the
  // time of day (tours get a confirmation, not a ticket PDF).
  const startAt = new Date(Date.now() - 60_000);
  const { orderId, codes } = await x.buy([{ type: 'Ticket', id: x.slotTicket, quantity: 1, startAt }]);
  const ctx = systemCtx({ db: x.t.database.db, clock: x.t.clock, config: x.t.config });
  const data = await loadOrderRenderData(ctx.db, ctx, orderId);
  const { text: printed, crop } = qrOnPage(firstPage(await renderTicketsPdf(ticketsInput(data!, 'EUR'))));
  assert.equal(printed, codes[0], 'the ticket PDF carries the order\'s barcode');
  const video = path.join(dir, 'ticket.y4m');
  writeFileSync(video, y4mOf(crop));
  // The visit time as the page must write it: German, in the museum's zone (Europe/Berlin).
  const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(startAt);
  // More tickets of the same slot, typed in below.
  const more = (await x.buy([{ type: 'Ticket', id: x.slotTicket, quantity: 3, startAt }])).codes;

  const browser = (await launchChromium(t, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]))!;
  try {
    // A device set to another zone and to US English: the page still writes the museum's time.
    const page = await browser.newPage({ viewport: { width: 480, height: 800 }, timezoneId: 'America/New_York', locale: 'en-US' });
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    const outside: string[] = [];
    page.on('request', (r) => !r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:') && outside.push(r.url()));

    const res = await page.goto(`${base}/scan?lang=de`);
    assert.match(res!.headers()['content-security-policy']!, /script-src 'self' 'wasm-unsafe-eval'/);
    await page.fill('#token', x.gateA);
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer.valid:not([hidden])', { timeout: 60_000 });
    assert.equal(await page.getAttribute('#answer', 'data-result'), 'valid');
    assert.equal(await page.textContent('#answer-message'), 'Gültig – Eintritt');
    assert.equal(await page.textContent('#answer-ticket'), 'Eintritt regulär');
    assert.ok((await page.textContent('#answer-detail'))!.includes(when), `detail shows ${when}`);
    await axeClean(page, 'the green answer');
    await page.screenshot({ path: shot('scan-valid.png') });

    await page.waitForSelector('#answer.refused:not([hidden])', { timeout: 60_000 });
    assert.equal(await page.getAttribute('#answer', 'data-result'), 'already_used');
    assert.match((await page.textContent('#answer-message'))!, /^Bereits benutzt um \d\d:\d\d$/);
    assert.doesNotMatch(await page.innerText('body'), /already_used|not_yet_valid/, 'no raw result code on screen');
    await axeClean(page, 'the red answer');
    await page.screenshot({ path: shot('scan-already-used.png') });
    await page.close();

    // Without the camera (the fake one keeps showing the first ticket): typed codes only.
    const typed = async (lang: string) => {
      const p = await browser.newPage({ viewport: { width: 480, height: 800 }, timezoneId: 'America/New_York', locale: 'en-US' });
      p.on('pageerror', (e) => problems.push(String(e)));
      await p.addInitScript(() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined }));
      await p.goto(`${base}/scan${lang}`);
      await p.fill('#token', x.gateA);
      await p.click('#signin-form button[type=submit]');
      await p.waitForSelector('#scanner:not([hidden])');
      return p;
    };
    const enter = async (p: typeof page, code: string) => {
      await p.fill('#manual', code);
      await p.click('#manual-form button[type=submit]');
    };

    // The US-English device without ?lang gets English (its Accept-Language): every text English,
    // the time written the British way, Berlin time.
    const en = await typed('');
    assert.equal(await en.getAttribute('html', 'lang'), 'en');
    assert.equal(await en.textContent('#signout'), 'Sign out');
    assert.equal(await en.textContent('#camera-status'), 'No camera – please enter the code');
    await enter(en, codes[0]!);
    await en.waitForSelector('#answer.refused:not([hidden])', { timeout: 60_000 });
    const whenEn = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(startAt);
    assert.ok((await en.textContent('#answer-detail'))!.includes(whenEn), `detail shows ${whenEn}`);
    assert.match((await en.textContent('#answer-message'))!, /^Already used at \d\d:\d\d$/);
    assert.doesNotMatch(await en.innerText('body'), /Anmelden|Bereits|Eingang/);

    // Offline: the scan waits as "pending" (amber, not the success sound), then its verdict shows.
    await en.context().setOffline(true);
    await enter(en, more[0]!);
    await en.waitForSelector('#answer.pending:not([hidden])', { timeout: 30_000 });
    assert.equal(await en.textContent('#answer-message'), 'Saved offline – verdict follows');
    assert.equal(await en.textContent('#queue'), '1 offline, verdict follows');
    await axeClean(en, 'the pending answer');
    await en.context().setOffline(false);
    await en.evaluate(() => window.dispatchEvent(new Event('online')));
    await en.waitForSelector('#synced li[data-result=valid]', { timeout: 30_000 });
    assert.match((await en.textContent('#synced li'))!, new RegExp(`${more[0]} · Valid – admit$`));
    assert.match((await en.textContent('#answer-reason'))!, /^Offline scan from \d\d:\d\d$/);
    assert.equal(await en.textContent('#queue'), '');
    await axeClean(en, 'the English page with a synced verdict');
    await en.close();

    // German, offline the same way, and at the exit a ticket never admitted says so.
    const de = await typed('?lang=de');
    assert.equal(await de.textContent('#signout'), 'Abmelden');
    await de.context().setOffline(true);
    await enter(de, more[1]!);
    await de.waitForSelector('#answer.pending:not([hidden])', { timeout: 30_000 });
    assert.equal(await de.textContent('#answer-message'), 'Offline gespeichert – Ergebnis folgt');
    await de.context().setOffline(false);
    await de.evaluate(() => window.dispatchEvent(new Event('online')));
    await de.waitForSelector('#synced li[data-result=valid]', { timeout: 30_000 });
    assert.match((await de.textContent('#synced li'))!, /Gültig – Eintritt$/);
    await de.waitForSelector('#answer', { state: 'hidden', timeout: 10_000 });
    await de.check('input[name=direction][value=exit]');
    await enter(de, more[2]!);
    await de.waitForSelector('#answer.refused:not([hidden])', { timeout: 30_000 });
    assert.equal(await de.getAttribute('#answer', 'data-result'), 'not_entered');
    assert.equal(await de.textContent('#answer-message'), 'Nicht eingelassen – kein Eintritt erfasst');
    await axeClean(de, 'the German refusal');
    await de.close();

    assert.deepEqual(outside, [], 'the page loads nothing from elsewhere');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
