// The /scan page (docs/api-contract.md §14): static HTML, JS and CSS from src/http/scan, and zxing-wasm's reader
// build and .wasm straight from node_modules, so `npm start` serves it without a build step and
// the decoder never comes from a CDN. The files are read once; the page gets its own strict
// Content-Security-Policy (scripts and connections only to this origin; wasm compilation allowed).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

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
  '/scan': { file: path.join(here, 'index.html'), type: 'text/html; charset=utf-8' },
  '/scan/scan.js': { file: path.join(here, 'scan.js'), type: 'text/javascript; charset=utf-8' },
  '/scan/scan.css': { file: path.join(here, 'scan.css'), type: 'text/css; charset=utf-8' },
  '/scan/zxing/reader.js': { file: path.join(zxingDist, 'iife/reader/index.js'), type: 'text/javascript; charset=utf-8' },
  '/scan/zxing/zxing_reader.wasm': { file: path.join(zxingDist, 'reader/zxing_reader.wasm'), type: 'application/wasm' },
};

export const scanPage: FastifyPluginAsync = async (app) => {
  for (const [url, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_req, reply) => {
      reply
        .header('content-type', type)
        .header('content-security-policy', SCAN_CSP)
        // The page may use the camera of this origin only.
        .header('permissions-policy', 'camera=(self), microphone=(), geolocation=()')
        .header('cache-control', url === '/scan' ? 'no-cache' : 'public, max-age=3600');
      return body;
    });
  }
};
