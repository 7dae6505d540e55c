// Pictures of catalogue records (docs/api-contract.md §23): upload as multipart/form-data
// (field `file` plus the target and the texts), read and delete an upload. The multipart parser
// is registered in this plugin only, so every other route still answers form bodies with 415.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deleteMedia, getMedia } from '../../../../domain/media/manageMedia.ts';
import { TARGET_TYPES, uploadMedia } from '../../../../domain/media/uploadMedia.ts';
import { invalid } from '../../../../domain/errors.ts';
import { tokenOnly } from '../../access.ts';
import { errorResponses, IdParam, Nullable } from '../../schemas/common.ts';
import { PictureObject } from '../../schemas/catalog.ts';

const write = { access: tokenOnly(['user'], ['catalog', 'write']), cache: 'live' as const, invalidatesCatalog: true };
const read = { access: tokenOnly(['user'], ['catalog', 'read']), cache: 'live' as const };
const tags = ['media'];
const Sizes = Type.Object({ teaser: Type.String(), preview: Type.String(), article: Type.String(), detail: Type.String(), original: Type.String() });

export const Media = Type.Object({
  id: Type.Integer(),
  target_type: Type.String({ description: 'museum, exhibition, ticket, event or tour' }),
  target_id: Type.Integer(),
  museum_id: Type.Integer(),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  copyright_info: Nullable(Type.String()),
  content_type: Type.String({ description: 'What the uploaded bytes were: image/jpeg, image/png or image/webp.' }),
  width: Type.Integer(),
  height: Type.Integer(),
  byte_size: Type.Integer(),
  created_at: Type.String(),
  picture: PictureObject,
  webp: Sizes,
});
const MediaEnvelope = Type.Object({ media: Media });

const Text = (d: string) => Type.Optional(Type.String({ maxLength: 2000, description: d }));
const UploadForm = Type.Object({
  file: Type.Unsafe<Buffer>({ type: 'object', description: 'The picture: JPEG, PNG or WebP, at most 20 MB (ATRIUM_MEDIA_MAX_BYTES); its type is read from the bytes.' }),
  target_type: Type.Union(TARGET_TYPES.map((t) => Type.Literal(t))),
  target_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  title: Text('go~mus picture title.'),
  description: Text('go~mus picture description.'),
  copyright_info: Text('go~mus copyright line.'),
});

export const mediaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: app.atriumConfig.mediaMaxBytes, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 12 },
  });

  app.post('/media', {
    config: write,
    schema: {
      tags, consumes: ['multipart/form-data'],
      summary: 'Upload a picture and attach it to a museum, exhibition, ticket, event or tour (staff)',
      description: 'The record\'s go~mus `picture` becomes this upload. Metadata (EXIF, GPS) is removed; variants `teaser`, `preview`, `article`, `detail`, `original` are made as JPEG and WebP and served under /media with immutable cache headers.',
      body: UploadForm,
      response: { 201: MediaEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 503, 507) },
    },
  }, async (req, reply) => {
    const b = req.body;
    if (!Buffer.isBuffer(b.file)) throw invalid('picture could not be saved', ['file must be a file part, not a text field']);
    const media = await uploadMedia(req.ctx, { ...b, bytes: b.file });
    return reply.code(201).send({ media });
  });

  app.get('/media/:id', {
    config: read,
    schema: { tags, summary: 'One uploaded picture (staff)', params: IdParam, response: { 200: MediaEnvelope, ...errorResponses(401, 403, 404, 422) } },
  }, async (req) => ({ media: await getMedia(req.ctx, req.params.id) }));

  app.delete('/media/:id', {
    config: write,
    schema: { tags, summary: 'Delete an uploaded picture; its record shows its newest remaining picture or none (staff)', params: IdParam, response: { 204: { type: 'null', description: 'Deleted.' }, ...errorResponses(401, 403, 404, 422) } },
  }, async (req, reply) => {
    await deleteMedia(req.ctx, req.params.id);
    return reply.code(204).send(null);
  });
};
