// The go~mus entry API (docs/api-contract.md §14) for scanner hardware already in museums: check, entry and
// exit by barcode in the path, `?location=`; 200 {message} when valid, 422 {error} when not.
// The same domain verbs as POST /api/v4/scans, so both transports store the same scans.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { checkBarcode } from '../../../../domain/entry/checkBarcode.ts';
import { scanWithView } from '../../../../domain/entry/scanBarcode.ts';

const access = tokenOnly(['entry', 'user'], ['orders', 'write']);
const tags = ['entry'];
const Params = Type.Object({ barcode: Type.String({ minLength: 1, maxLength: 64 }) });
const Query = Type.Object({ location: Type.Optional(Type.String({ maxLength: 100 })) });
const Valid = Type.Object({ message: Type.String() });
const Refused = Type.Object({
  error: Type.String({ description: 'Why, as display text in the museum language (POST /api/v4/scans gives the result code).' }),
  errors: Type.Optional(Type.Array(Type.String())),
  // SCAN_REFUSED for a refused scan; a malformed barcode or location is VALIDATION_FAILED with `errors`.
  code: Type.String({ examples: ['SCAN_REFUSED', 'VALIDATION_FAILED'] }),
  request_id: Type.String(),
});
const response = { 200: Valid, 422: Refused, ...errorResponses(400, 401, 403) };

function answer(req: FastifyRequest, reply: FastifyReply, r: { result: string; message: string }) {
  if (r.result === 'valid') return { message: r.message };
  reply.code(422);
  return { error: r.message, code: 'SCAN_REFUSED' as const, request_id: String(req.id) };
}

export const gomusEntryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const scan = (direction: 'entry' | 'exit') => async (req: FastifyRequest<{ Params: { barcode: string }; Querystring: { location?: string } }>, reply: FastifyReply) => {
    const { view } = await scanWithView(req.ctx, { barcode: req.params.barcode, direction, location: req.query.location ?? null });
    return answer(req, reply, view);
  };

  app.get(
    '/barcodes/:barcode',
    { config: { access, cache: 'live' }, schema: { tags, summary: 'go~mus: check a barcode (nothing stored, no entry used)', params: Params, querystring: Query, response } },
    async (req, reply) => answer(req, reply, await checkBarcode(req.ctx, { barcode: req.params.barcode })),
  );
  app.put(
    '/barcodes/:barcode',
    { config: { access, cache: 'live' }, schema: { tags, summary: 'go~mus: entry scan', params: Params, querystring: Query, response } },
    scan('entry'),
  );
  app.put(
    '/barcodes/:barcode/exit',
    { config: { access, cache: 'live' }, schema: { tags, summary: 'go~mus: exit scan', params: Params, querystring: Query, response } },
    scan('exit'),
  );
};
