// The console's static files, read once: its stylesheet, and htmx straight from node_modules (no
// build step, no CDN). Cached for an hour; the CSP allows scripts and styles from here only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

const assets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets');
const htmxDir = path.dirname(createRequire(import.meta.url).resolve('htmx.org/package.json'));

const FILES: Record<string, { file: string; type: string }> = {
  '/assets/console.css': { file: path.join(assets, 'console.css'), type: 'text/css; charset=utf-8' },
  '/assets/console.js': { file: path.join(assets, 'console.js'), type: 'text/javascript; charset=utf-8' },
  '/assets/htmx.min.js': { file: path.join(htmxDir, 'dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
};

export const assetRoutes: FastifyPluginAsync = async (app) => {
  for (const [url, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_req, reply) => reply.header('content-type', type).header('cache-control', 'public, max-age=3600').send(body));
  }
};
