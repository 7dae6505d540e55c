// The /scan page (docs/api-contract.md §14): static HTML, JS and CSS from src/http/scan, and zxing-wasm's reader
// build and .wasm straight from node_modules, so `npm start` serves it without a build step and
// the decoder never comes from a CDN. The files are read once; the page gets its own strict
// Content-Security-Policy (scripts and connections only to this origin; wasm compilation allowed).
// The page is German or English (lang.ts: ?lang, else Accept-Language, else the instance's
// default): its texts (messages.json) are filled in here, and the ones the script writes later
// travel in the body's data-texts attribute (no inline script).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { scanLang, type Lang } from './lang.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
// zxing-wasm/reader resolves to <package>/dist/cjs/reader/index.js.
const zxingDist = path.resolve(path.dirname(createRequire(import.meta.url).resolve('zxing-wasm/reader')), '../..');

export const SCAN_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILES: Record<string, { file: string; type: string }> = {
  '/scan/scan.js': { file: path.join(here, 'scan.js'), type: 'text/javascript; charset=utf-8' },
  '/scan/scan.css': { file: path.join(here, 'scan.css'), type: 'text/css; charset=utf-8' },
  '/scan/zxing/reader.js': { file: path.join(zxingDist, 'iife/reader/index.js'), type: 'text/javascript; charset=utf-8' },
  '/scan/zxing/zxing_reader.wasm': { file: path.join(zxingDist, 'reader/zxing_reader.wasm'), type: 'application/wasm' },
};

const TEXTS = JSON.parse(readFileSync(path.join(here, 'messages.json'), 'utf8')) as Record<Lang, Record<string, string>>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** index.html in one language: every {{key}} replaced by its escaped text. */
export function scanHtml(lang: Lang): string {
  const texts = TEXTS[lang];
  const values: Record<string, string> = { ...texts, lang, texts: JSON.stringify(texts) };
  return readFileSync(path.join(here, 'index.html'), 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    if (!(key in values)) throw new Error(`scan page text ${key} is missing`);
    return escapeHtml(values[key]!);
  });
}

export const scanPage: FastifyPluginAsync = async (app) => {
  const html = { de: scanHtml('de'), en: scanHtml('en') };
  const locales = app.atriumConfig?.locales ?? [];
  app.get<{ Querystring: { lang?: string } }>('/scan', { schema: { hide: true } }, async (req, reply) => {
    const lang = scanLang(req.query.lang, req.headers['accept-language'], locales);
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', SCAN_CSP)
      .header('permissions-policy', 'camera=(self), microphone=(), geolocation=()')
      .header('content-language', lang)
      .header('vary', 'Accept-Language')
      .header('cache-control', 'no-cache');
    return html[lang];
  });
  for (const [url, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_req, reply) => {
      reply
        .header('content-type', type)
        .header('content-security-policy', SCAN_CSP)
        // The page may use the camera of this origin only.
        .header('permissions-policy', 'camera=(self), microphone=(), geolocation=()')
        .header('cache-control', 'public, max-age=3600');
      return body;
    });
  }
};
