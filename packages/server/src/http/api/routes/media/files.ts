// GET /media/<key>/<variant>.<jpg|webp>: the picture files, public like the catalogue that links
// them. A key names bytes that never change, so answers may be kept for a year without asking
// again (immutable); the ETag names the file, so a revalidating client gets a 304 without a read.
import type { FastifyPluginAsync } from 'fastify';
import { readVariant } from '../../../../domain/media/manageMedia.ts';
import { publicRead } from '../../access.ts';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', webp: 'image/webp' };
const FILE = /^([a-z]+)\.(jpg|webp)$/;
const KEY = /^[a-f0-9]{32}$/;
const CACHE = 'public, max-age=31536000, immutable';

function notFound(reply: import('fastify').FastifyReply) {
  return reply.code(404).header('cache-control', 'no-store').send({ error: 'picture not found', code: 'NOT_FOUND' });
}

export const mediaFileRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { key: string; file: string } }>('/media/:key/:file', {
    config: { access: publicRead },
    schema: { hide: true },
  }, async (req, reply) => {
    const { key, file } = req.params;
    const m = FILE.exec(file);
    if (!KEY.test(key) || !m) return notFound(reply);
    const etag = `"${key}-${file}"`;
    const inm = req.headers['if-none-match'];
    if (typeof inm === 'string' && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return reply.code(304).header('etag', etag).header('cache-control', CACHE).send();
    }
    const bytes = await readVariant(req.ctx.config, key, file);
    if (!bytes) return notFound(reply);
    return reply
      .header('content-type', TYPES[m[2]!]!)
      .header('etag', etag)
      .header('cache-control', CACHE)
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
};
