// The shop's static files, read once and served from this origin (no CDN, no build step): the
// stylesheet and the small script that enhances the countdown and the calendar.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

const assets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets');
const FILES: Record<string, { file: string; type: string }> = {
  '/assets/shop.css': { file: path.join(assets, 'shop.css'), type: 'text/css; charset=utf-8' },
  '/assets/shop.js': { file: path.join(assets, 'shop.js'), type: 'text/javascript; charset=utf-8' },
};

export const assetRoutes: FastifyPluginAsync = async (app) => {
  for (const [url, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_req, reply) => reply.header('content-type', type).header('cache-control', 'public, max-age=3600').send(body));
  }
};
