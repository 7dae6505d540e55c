// GET /api/v4/shop (docs/api-contract.md §23): the shop's settings and translations for go~mus
// shop clients. Public read; live (settings change without a catalogue version bump).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getShopObject } from '../../../../domain/shop/shopObject.ts';
import { paymentProviders } from '../../../../providers/payments/index.ts';
import { publicRead } from '../../access.ts';
import { LocaleQuery } from '../../schemas/catalog.ts';
import { errorResponses } from '../../schemas/common.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Texts = Type.Object({
  title: Nullable(Type.String()),
  welcome: Nullable(Type.String()),
  footer: Nullable(Type.String()),
  confirmation: Nullable(Type.String()),
});

export const Shop = Type.Object({
  title: Type.String({ description: 'In the chosen locale (instance default as fallback).' }),
  colour: Type.String({ description: 'Accent colour, #rrggbb.' }),
  logo_url: Nullable(Type.String()),
  logo_media_id: Type.Union([Type.Integer(), Type.Null()]),
  locales: Type.Array(Type.String()),
  default_locale: Type.String(),
  currency: Type.String(),
  zone: Type.String(),
  links: Type.Object({ terms: Nullable(Type.String()), privacy: Nullable(Type.String()), imprint: Nullable(Type.String()) }),
  cancellation: Type.Object({
    rule: Type.String({ description: "The instance default for visitor cancellation: 'never' or 'Nh' (until N hours before the visit)." }),
    hours: Type.Union([Type.Integer(), Type.Null()]),
  }),
  payment_providers: Type.Array(Type.String()),
  offers: Type.Array(Type.Object({ type: Type.String(), id: Type.Integer() }), { description: 'Offers listed, in this order; empty: all.' }),
  translations: Type.Record(Type.String(), Texts, { description: 'Every translatable text per locale.' }),
});

export const shopRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/shop', {
    config: { access: publicRead, cache: 'live' },
    schema: {
      tags: ['meta'],
      summary: "The visitor shop's settings and translations",
      querystring: Type.Object({ locale: LocaleQuery }),
      response: { 200: Type.Object({ shop: Shop }), ...errorResponses(401, 422) },
    },
  }, async (req) => ({ shop: await getShopObject(req.ctx, { locale: req.query.locale, enabled: paymentProviders(req.ctx.config).enabled }) }));
};
