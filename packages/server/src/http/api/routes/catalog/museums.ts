import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createExhibition } from '../../../../domain/catalog/createExhibition.ts';
import { createMuseum } from '../../../../domain/catalog/createMuseum.ts';
import { getExhibition } from '../../../../domain/catalog/getExhibition.ts';
import { getMuseum } from '../../../../domain/catalog/getMuseum.ts';
import { getOpeningHours } from '../../../../domain/catalog/getOpeningHours.ts';
import { listExhibitions, listExhibitionsJson } from '../../../../domain/catalog/listExhibitions.ts';
import { listMuseums, listMuseumsJson } from '../../../../domain/catalog/listMuseums.ts';
import { updateExhibition } from '../../../../domain/catalog/updateExhibition.ts';
import { updateMuseum } from '../../../../domain/catalog/updateMuseum.ts';
import { DateString, Exhibition, ListQuery, listOf, Museum, OneQuery, oneOf } from '../../schemas/catalog.ts';
import { ExhibitionBody, MuseumBody } from '../../schemas/catalogWrite.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { listJson, readConfig, rowJson, unwrap, writeConfig } from './common.ts';

export const museumRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['catalogue'];
  app.get('/museums', {
    config: readConfig,
    schema: { tags, summary: 'Museums in the caller scope', querystring: Type.Object(ListQuery), response: { 200: listOf('museums', Museum), ...errorResponses(401, 422) } },
  }, async (req, reply) => {
    const out = rowJson(req, reply, Museum);
    if (out) return listJson(reply, 'museums', await listMuseumsJson(req.ctx, req.query, out));
    const page = await listMuseums(req.ctx, req.query);
    return { museums: page.items, meta: page.meta };
  });
  app.get('/museums/:id', {
    config: readConfig,
    schema: { tags, summary: 'One museum', params: IdParam, querystring: OneQuery, response: { 200: oneOf('museum', Museum), ...errorResponses(401, 404, 422) } },
  }, async (req) => ({ museum: await getMuseum(req.ctx, { id: req.params.id, locale: req.query.locale }) }));
  app.get('/museums/:id/opening_hours', {
    config: readConfig,
    schema: {
      tags, summary: 'Opening hours of one museum-local day (null when closed)', params: IdParam,
      querystring: Type.Object({ date: Type.Optional(DateString) }),
      response: {
        200: Type.Object({
          opening_hours: Type.Union([Type.Object({ begin: Type.String(), end: Type.String() }), Type.Null()]),
          closed: Type.Optional(Type.Boolean()),
          reason: Type.Optional(Type.String({ description: 'Why the day is closed (docs/api-contract.md §13).' })),
        }),
        ...errorResponses(401, 404, 422),
      },
    },
  }, async (req) => getOpeningHours(req.ctx, { id: req.params.id, date: req.query.date }));
  app.post('/museums', {
    config: writeConfig, preValidation: unwrap('museum'),
    schema: { tags, summary: 'Create a museum (staff)', body: MuseumBody, response: { 201: oneOf('museum', Museum), ...errorResponses(400, 401, 403, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ museum: await createMuseum(req.ctx, req.body) }));
  app.put('/museums/:id', {
    config: writeConfig, preValidation: unwrap('museum'),
    schema: { tags, summary: 'Change a museum (staff)', params: IdParam, body: MuseumBody, response: { 200: oneOf('museum', Museum), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ museum: await updateMuseum(req.ctx, { ...req.body, id: req.params.id }) }));

  app.get('/exhibitions', {
    config: readConfig,
    schema: {
      tags, summary: 'Exhibitions in the caller scope',
      querystring: Type.Object({ ...ListQuery, by_featured: Type.Optional(Type.Boolean()) }),
      response: { 200: listOf('exhibitions', Exhibition), ...errorResponses(401, 422) },
    },
  }, async (req, reply) => {
    const out = rowJson(req, reply, Exhibition);
    if (out) return listJson(reply, 'exhibitions', await listExhibitionsJson(req.ctx, req.query, out));
    const page = await listExhibitions(req.ctx, req.query);
    return { exhibitions: page.items, meta: page.meta };
  });
  app.get('/exhibitions/:id', {
    config: readConfig,
    schema: { tags, summary: 'One exhibition', params: IdParam, querystring: OneQuery, response: { 200: oneOf('exhibition', Exhibition), ...errorResponses(401, 404, 422) } },
  }, async (req) => ({ exhibition: await getExhibition(req.ctx, { id: req.params.id, locale: req.query.locale }) }));
  app.post('/exhibitions', {
    config: writeConfig, preValidation: unwrap('exhibition'),
    schema: { tags, summary: 'Create an exhibition (staff)', body: ExhibitionBody, response: { 201: oneOf('exhibition', Exhibition), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ exhibition: await createExhibition(req.ctx, req.body) }));
  app.put('/exhibitions/:id', {
    config: writeConfig, preValidation: unwrap('exhibition'),
    schema: { tags, summary: 'Change an exhibition (staff)', params: IdParam, body: ExhibitionBody, response: { 200: oneOf('exhibition', Exhibition), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ exhibition: await updateExhibition(req.ctx, { ...req.body, id: req.params.id }) }));
};
