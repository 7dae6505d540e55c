// go~mus lookup lists: countries, states and dispatch modes (docs/gomus-compatibility.md), paged
// and wrapped like every list. Public reads, cached like master data.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listCountries, listDispatchModes, listStates } from '../../../../domain/catalog/gomusLookups.ts';
import type { Page } from '../../../../domain/catalog/internal.ts';
import { publicRead } from '../../access.ts';
import { listOf, LocaleQuery } from '../../schemas/catalog.ts';
import { errorResponses, PageQuery } from '../../schemas/common.ts';

const config = { access: publicRead, cache: 'master' as const };
const querystring = Type.Object({ ...PageQuery, locale: LocaleQuery });
const Country = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String({ description: 'ISO 3166-1 alpha-2' }) });
const State = Type.Object({ id: Type.Integer(), name: Type.String(), country_id: Type.Integer() });
const DispatchMode = Type.Object({ id: Type.Integer(), name: Type.String() });

const wrap = <T>(key: string, page: Page<T>) => ({ [key]: page.items, meta: page.meta });

export const lookupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/countries', {
    config,
    schema: {
      tags: ['meta'], summary: 'Countries (ISO 3166-1), named in the chosen locale; id = place in the list of codes',
      querystring, response: { 200: listOf('countries', Country), ...errorResponses(401, 422) },
    },
  }, async (req) => wrap('countries', listCountries(req.ctx, req.query)));
  app.get('/states', {
    config,
    schema: {
      tags: ['meta'], summary: 'States: always empty, Atrium keeps no states in addresses',
      querystring, response: { 200: listOf('states', State), ...errorResponses(401, 422) },
    },
  }, async (req) => wrap('states', listStates(req.ctx, req.query)));
  app.get('/dispatch_modes', {
    config,
    schema: {
      tags: ['meta'], summary: 'How tickets reach the buyer: e-mail only (id 1, as in go~mus)',
      querystring, response: { 200: listOf('dispatch_modes', DispatchMode), ...errorResponses(401, 422) },
    },
  }, async (req) => wrap('dispatch_modes', listDispatchModes(req.ctx, req.query)));
};
