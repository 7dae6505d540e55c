// Instance-level endpoints: whoami (spec 2.1), version, locales, and the go~mus lookup lists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { publicRead } from '../../access.ts';
import { errorResponses } from '../../schemas/common.ts';
import { API_VERSION, SYSTEM_VERSION } from '../../plugins/docs.ts';
import { lookupRoutes } from './lookups.ts';
import { shopRoutes } from './shop.ts';
import { named } from '../../../plugin-name.ts';

export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // go~mus answers its build time in `time`; Atrium has no build step, so it is when this server
  // started (the moment the running code took over), which is what a client comparing it learns.
  const started = new Date().toISOString();
  await app.register(named(lookupRoutes));
  await app.register(named(shopRoutes));
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
    // A token never resolves to the shop's principal (that one exists only inside src/http/shop).
    async (req) => ({ access: req.principal.access as 'public' | 'user' | 'reseller' | 'entry', museums: [...req.principal.museumIds] }),
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
              release: Type.String({ description: 'The release of the running server (its package version).' }),
              time: Type.String({ description: 'When the running server started (ISO 8601).' }),
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
        release: SYSTEM_VERSION,
        time: started,
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
