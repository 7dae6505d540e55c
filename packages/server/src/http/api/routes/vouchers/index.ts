// Single-purpose vouchers (docs/vouchers.md): staff issue, list and read them; orders redeem them
// through `codes` (POST /orders). The code is in the issue's answer only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses } from '../../schemas/common.ts';
import { getVoucher, issueVoucher, listVouchers, serializeVoucher } from '../../../../domain/vouchers/singlePurpose.ts';
import { IssuedVoucher, VoucherBody, VoucherEnvelope, VoucherList, VoucherListQuery, VoucherParam } from './schemas.ts';

const read = tokenOnly(['user'], ['orders', 'read']);
const write = tokenOnly(['user'], ['orders', 'write']);
const tags = ['vouchers'];

export const voucherRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/vouchers',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('voucher'),
      schema: { tags, summary: 'Issue a single-purpose voucher for one ticket (its price and VAT taken at sale)', body: VoucherBody, response: { 201: IssuedVoucher, ...errorResponses(400, 401, 403, 415, 422) } },
    },
    async (req, reply) => {
      const r = await issueVoucher(req.ctx, req.body);
      reply.code(201);
      return { voucher: { ...serializeVoucher(r.voucher, req.ctx.config.zone, req.ctx.clock.now()), code: r.code } };
    },
  );

  app.get(
    '/vouchers',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'Single-purpose vouchers, newest first; last4 finds one by the end of its code', querystring: VoucherListQuery, response: { 200: VoucherList, ...errorResponses(401, 403, 422) } } },
    async (req) => ({ vouchers: (await listVouchers(req.ctx, req.query)).map((v) => serializeVoucher(v, req.ctx.config.zone, req.ctx.clock.now())) }),
  );

  app.get(
    '/vouchers/:id',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'A single-purpose voucher', params: VoucherParam, response: { 200: VoucherEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => ({ voucher: serializeVoucher(await getVoucher(req.ctx, req.params.id), req.ctx.config.zone, req.ctx.clock.now()) }),
  );
};
