// Promo codes (docs/vouchers.md): staff create, list, read and switch them on or off. Orders take
// them as `codes` (POST /orders).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses } from '../../schemas/common.ts';
import { createPromoCode, getPromoCode, listPromoCodes, serializePromoCode, setPromoCodeActive } from '../../../../domain/vouchers/promoCodes.ts';
import { PromoActiveBody, PromoCodeBody, PromoCodeEnvelope, PromoCodeList, PromoCodeParam, PromoListQuery } from './schemas.ts';

const read = tokenOnly(['user'], ['orders', 'read']);
const write = tokenOnly(['user'], ['orders', 'write']);
const tags = ['promo codes'];

export const promoCodeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/promo_codes',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('promo_code'),
      schema: { tags, summary: 'Create a promo code', body: PromoCodeBody, response: { 201: PromoCodeEnvelope, ...errorResponses(400, 401, 403, 415, 422) } },
    },
    async (req, reply) => {
      const c = await createPromoCode(req.ctx, req.body);
      reply.code(201);
      return { promo_code: serializePromoCode(c) };
    },
  );

  app.get(
    '/promo_codes',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'Promo codes, newest first', querystring: PromoListQuery, response: { 200: PromoCodeList, ...errorResponses(401, 403, 422) } } },
    async (req) => ({ promo_codes: (await listPromoCodes(req.ctx, req.query)).map(serializePromoCode) }),
  );

  app.get(
    '/promo_codes/:id',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'A promo code with its use count', params: PromoCodeParam, response: { 200: PromoCodeEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => ({ promo_code: serializePromoCode(await getPromoCode(req.ctx, req.params.id)) }),
  );

  app.patch(
    '/promo_codes/:id',
    {
      config: { access: write, cache: 'live' },
      schema: { tags, summary: 'Switch a promo code on or off', params: PromoCodeParam, body: PromoActiveBody, response: { 200: PromoCodeEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (req) => ({ promo_code: serializePromoCode(await setPromoCodeActive(req.ctx, req.params.id, req.body.active)) }),
  );
};
