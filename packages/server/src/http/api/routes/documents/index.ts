// Documents (docs/api-contract.md §10): upload (scanned in the background), list, metadata and download.
// Downloads answer 200 with the bytes, 202 while processing, 410 once gone (spec 4, 7.1).
import { unwrap } from '../../unwrap.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { downloadDocument } from '../../../../domain/documents/downloadDocument.ts';
import { contentDisposition } from '../../../../domain/documents/filename.ts';
import { getDocument } from '../../../../domain/documents/getDocument.ts';
import { listDocuments } from '../../../../domain/documents/listDocuments.ts';
import { uploadDocument } from '../../../../domain/documents/uploadDocument.ts';
import { errorResponses } from '../../schemas/common.ts';
import { DocumentEnvelope, DocumentList, DocumentParam, ListDocumentsQuery, UploadBody } from '../../schemas/documents.ts';
import { gomusDocumentRoutes } from './gomus.ts';
import { serializeDocument } from '../../../../domain/documents/json.ts';
import { named } from '../../../plugin-name.ts';

const read = tokenOnly(['user', 'reseller'], ['documents', 'read']);
const write = tokenOnly(['user', 'reseller'], ['documents', 'write']);
const tags = ['documents'];

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance settings (decorated in app.ts), for route options fixed at registration. */
    atriumConfig: import('../../../../config.ts').Config;
  }
}

export const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const zone = (req: FastifyRequest) => req.ctx.config.zone;
  // base64 grows 4/3; JSON framing and the other fields fit in the extra 64 KiB.
  const uploadBodyLimit = (max: number) => Math.ceil(max / 3) * 4 + 64 * 1024;

  app.post(
    '/documents',
    {
      config: { access: write, cache: 'live' },
      bodyLimit: Math.max(uploadBodyLimit(app.atriumConfig.uploadMaxBytes), app.initialConfig.bodyLimit ?? 0),
      preValidation: unwrap('document'),
      schema: {
        tags,
        summary: 'Upload an attachment of an order or a request (base64 JSON); answered 202 while it is virus-scanned',
        body: UploadBody,
        response: { 202: DocumentEnvelope, ...errorResponses(400, 401, 403, 404, 413, 415, 422, 507) },
      },
    },
    async (req, reply) => {
      const doc = await uploadDocument(req.ctx, req.body);
      return reply.code(202).send({ document: serializeDocument(doc, zone(req)) });
    },
  );

  app.get(
    '/documents',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'List visible documents (filters order_id, request_id, kind, status)',
        querystring: ListDocumentsQuery,
        response: { 200: DocumentList, ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const r = await listDocuments(req.ctx, req.query);
      return {
        documents: r.documents.map((d) => serializeDocument(d, zone(req))),
        meta: { total_count: r.total, page: r.page, per_page: r.perPage },
      };
    },
  );

  app.get(
    '/documents/:id',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'Metadata of one document (status, size, retention)',
        params: DocumentParam,
        response: { 200: DocumentEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ document: serializeDocument(await getDocument(req.ctx, req.params.id), zone(req)) }),
  );

  // GET also answers HEAD (Fastify's exposeHeadRoutes): same status and headers, no body.
  app.get(
    '/documents/:id/download',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'Download the file: 200 with the bytes, 202 while generating or scanning (Retry-After), 410 once gone',
        params: DocumentParam,
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The file; Content-Type and Content-Disposition name it.' }),
          202: { ...errorResponses(202)[202]!, description: 'Still being generated or virus-scanned: retry after Retry-After (code DOCUMENT_PROCESSING).' },
          ...errorResponses(401, 403, 404, 410, 422),
        },
      },
    },
    async (req, reply) => {
      const file = await downloadDocument(req.ctx, req.params.id);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('content-length', String(file.content.length))
        // Uploaded bytes are served as what they declared, never sniffed into HTML (security.ts
        // already sends nosniff; the sandbox CSP keeps a hostile PDF or image from running script).
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (file.sha256) reply.header('etag', `"${file.sha256}"`);
      return reply.send(file.content);
    },
  );

  await app.register(named(gomusDocumentRoutes));
};
