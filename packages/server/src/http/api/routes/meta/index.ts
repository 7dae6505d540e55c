// Instance-level endpoints: whoami (spec 2.1), version, locales.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { publicRead } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { API_VERSION, SYSTEM_VERSION } from '../../plugins/docs.ts';

export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/whoami',
    {
      // Scanner devices too: the /scan page checks its token and learns its museums here.
      config: { access: { ...publicRead, classes: [...publicRead.classes, 'entry'] } },
      schema: {
        tags: ['meta'],
        summary: 'Token test: the access class and museum scope of the bearer token',
        response: {
          200: Type.Object({
            access: Type.Union([Type.Literal('public'), Type.Literal('user'), Type.Literal('reseller'), Type.Literal('entry')]),
            museums: Type.Array(Type.Integer(), { description: 'Empty means every museum of the instance.' }),
          }),
          ...errorResponses(401),
        },
      },
    },
    async (req) => ({ access: req.principal.access, museums: [...req.principal.museumIds] }),
  );

  app.get(
    '/version',
    {
      config: { access: publicRead },
      schema: {
        tags: ['meta'],
        summary: 'API and system version, instance zone, currency and default page size',
        response: {
          200: Type.Object({
            version: Type.Object({
              api: Type.String(),
              system: Type.String(),
              zone: Type.String(),
              currency: Type.String(),
              per_page: Type.Integer(),
            }),
          }),
          ...errorResponses(401),
        },
      },
    },
    async (req) => ({
      version: {
        api: API_VERSION,
        system: SYSTEM_VERSION,
        zone: req.ctx.config.zone,
        currency: req.ctx.config.currency,
        per_page: req.ctx.config.defaultPerPage,
      },
    }),
  );

  app.get(
    '/locales',
    {
      config: { access: publicRead, cache: 'master' },
      schema: {
        tags: ['meta'],
        summary: 'Locales of translatable content; the first is the default',
        response: { 200: Type.Object({ locales: Type.Array(Type.String()) }), ...errorResponses(401) },
      },
    },
    async (req) => ({ locales: req.ctx.config.locales }),
  );
};
