// /shop/embed.js (a museum's own website loads it to show a ticket button or the inline shop)
// and /shop/embed/frame.js (shop pages load it to report their height to that website). Both
// are plain files read once, served without a build step.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A script file needs nothing from any origin; other websites may load it (that is its purpose). */
export const SCRIPT_CSP = "default-src 'none'; frame-ancestors 'none'";

const FILES: Record<string, string> = {
  '/embed.js': path.join(here, 'embed.js'),
  '/embed/frame.js': path.join(here, 'frame.js'),
};

export const shopEmbed: FastifyPluginAsync = async (app) => {
  for (const [url, file] of Object.entries(FILES)) {
    const body = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('content-security-policy', SCRIPT_CSP)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'public, max-age=300')
        .send(body));
  }
};
