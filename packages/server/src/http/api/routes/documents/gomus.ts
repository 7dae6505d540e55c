// go~mus document links, authorized by the order token in the query (`?token=`) instead of a
// bearer header: GET /orders/:id/tickets/:item.pdf, /events/:item.pdf, /tours/:item.pdf and
// /orders/:id/invoice.pdf (docs/gomus-compatibility.md). The token is masked in the request log
// (plugins/request-log.ts) and never echoed. `locale` is accepted and ignored: documents are
// rendered once, in the order's language.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { publicRead } from '../../access.ts';
import type { DocumentFile } from '../../../../domain/documents/downloadDocument.ts';
import { contentDisposition } from '../../../../domain/documents/filename.ts';
import { orderDocumentByToken, type LinkKind } from '../../../../domain/documents/orderDocumentByToken.ts';
import { soldCodePdf } from '../../../../domain/vouchers/orderCodePdf.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';

const tags = ['documents'];
const config = { access: publicRead, cache: 'live' as const };
const TokenQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The order token (`token` in the order answer).' }),
  locale: Type.Optional(Type.String({ maxLength: 10, description: 'Accepted for go~mus links; the document keeps its language.' })),
});
const ItemParams = Type.Object({ id: IdParam.properties.id, item: IdParam.properties.id });
const Pdf = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PDF.' });
const responses = {
  200: Pdf,
  202: { ...errorResponses(202)[202]!, description: 'Still being generated: retry after Retry-After (code DOCUMENT_PROCESSING).' },
  ...errorResponses(401, 404, 410, 422),
};

function send(reply: FastifyReply, file: DocumentFile) {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.filename))
    .header('content-length', String(file.content.length))
    .header('content-security-policy', "default-src 'none'; sandbox")
    // The URL carries a secret: keep it out of shared caches and referrers.
    .header('referrer-policy', 'no-referrer');
  if (file.sha256) reply.header('etag', `"${file.sha256}"`);
  return reply.send(file.content);
}

export const gomusDocumentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const items: Array<[Exclude<LinkKind, 'invoice'>, string]> = [
    ['tickets', 'Ticket PDF of an order item (go~mus link; the order\'s ticket PDF, every admission)'],
    ['events', 'Ticket PDF of an event booking (go~mus link; the order\'s ticket PDF)'],
    ['tours', 'Booking confirmation of a tour item (go~mus link; the order\'s confirmation PDF)'],
  ];
  for (const [link, summary] of items) {
    app.get(`/orders/:id/${link}/:item.pdf`, {
      config,
      schema: {
        tags, summary, operationId: `downloadOrder${link[0]!.toUpperCase()}${link.slice(1, -1)}Pdf`,
        params: ItemParams, querystring: TokenQuery, response: responses,
      },
    }, async (req, reply) => send(reply, await orderDocumentByToken(req.ctx, { orderId: req.params.id, itemId: req.params.item, token: req.query.token, link })));
  }
  // The gift cards and vouchers an order sold (docs/vouchers.md): drawn on each request from the
  // sealed code the order keeps for its buyer, never stored as a document.
  for (const [kind, path, op] of [['gift_card', 'gift_cards', 'GiftCard'], ['voucher', 'vouchers', 'Voucher']] as const) {
    app.get(`/orders/:id/${path}/:item.pdf`, {
      config,
      schema: {
        tags, summary: `${kind === 'gift_card' ? 'Gift card' : 'Single-purpose voucher'} sold by an order, as a PDF with its code (order token; as often as asked)`,
        operationId: `downloadOrder${op}Pdf`, params: ItemParams, querystring: TokenQuery, response: { 200: Pdf, ...errorResponses(401, 404, 410, 422) },
      },
    }, async (req, reply) => {
      const sold = await soldCodePdf(req.ctx, { orderId: req.params.id, token: req.query.token, kind, id: req.params.item });
      const { renderGiftCardPdf } = await import('../../../../documents/render/giftCard.ts');
      const content = await renderGiftCardPdf(sold.data);
      // The PDF carries the code: never kept by a cache.
      reply.header('cache-control', 'no-store');
      return send(reply, { content, contentType: 'application/pdf', filename: sold.filename, sha256: null });
    });
  }
  app.get('/orders/:id/invoice.pdf', {
    config,
    schema: { tags, summary: 'Invoice PDF of an order (go~mus link)', operationId: 'downloadOrderInvoicePdf', params: IdParam, querystring: TokenQuery, response: responses },
  }, async (req, reply) => send(reply, await orderDocumentByToken(req.ctx, { orderId: req.params.id, token: req.query.token, link: 'invoice' })));
};
