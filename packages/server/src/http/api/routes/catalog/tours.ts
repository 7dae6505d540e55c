import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createLanguage } from '../../../../domain/catalog/createLanguage.ts';
import { createTour } from '../../../../domain/catalog/createTour.ts';
import { getTour } from '../../../../domain/catalog/getTour.ts';
import { listLanguages } from '../../../../domain/catalog/listLanguages.ts';
import { listTours, listToursJson } from '../../../../domain/catalog/listTours.ts';
import { updateTour } from '../../../../domain/catalog/updateTour.ts';
import { TagFilters, IdList, LanguageRef, ListQuery, listOf, OneQuery, oneOf, Tour } from '../../schemas/catalog.ts';
import { Language, LanguageBody, TourBody } from '../../schemas/catalogWrite.ts';
import { errorResponses, IdParam } from '../../schemas/common.ts';
import { listJson, readConfig, rowJson, unwrap, writeConfig } from './common.ts';

const Languages = Type.Object({ languages: Type.Array(LanguageRef) });

export const tourRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['catalogue'];
  app.get('/tours', {
    config: readConfig,
    schema: {
      tags, summary: 'Tours the caller may see',
      querystring: Type.Object({ ...ListQuery, by_exhibition_ids: Type.Optional(IdList), by_featured: Type.Optional(Type.Boolean()), ...TagFilters }),
      response: { 200: listOf('tours', Tour), ...errorResponses(401, 422) },
    },
  }, async (req, reply) => {
    const out = rowJson(req, reply, Tour);
    if (out) return listJson(reply, 'tours', await listToursJson(req.ctx, req.query, out));
    const page = await listTours(req.ctx, req.query);
    return { tours: page.items, meta: page.meta };
  });
  app.get('/tours/languages', {
    config: readConfig,
    schema: { tags, summary: 'Languages of the tours the caller may see', response: { 200: Languages, ...errorResponses(401) } },
  }, async (req) => ({ languages: await listLanguages(req.ctx, { of: 'tours' }) }));
  app.get('/events/languages', {
    config: readConfig,
    schema: { tags, summary: 'Languages of the event dates the caller may see', response: { 200: Languages, ...errorResponses(401) } },
  }, async (req) => ({ languages: await listLanguages(req.ctx, { of: 'events' }) }));
  app.get('/tours/:id', {
    config: readConfig,
    schema: { tags, summary: 'One tour', params: IdParam, querystring: OneQuery, response: { 200: oneOf('tour', Tour), ...errorResponses(401, 404, 422) } },
  }, async (req) => ({ tour: await getTour(req.ctx, { id: req.params.id, locale: req.query.locale }) }));
  app.post('/tours', {
    config: writeConfig, preValidation: unwrap('tour'),
    schema: { tags, summary: 'Create a tour (staff)', body: TourBody, response: { 201: oneOf('tour', Tour), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ tour: await createTour(req.ctx, req.body) }));
  app.put('/tours/:id', {
    config: writeConfig, preValidation: unwrap('tour'),
    schema: { tags, summary: 'Change a tour (staff); language_ids replaces its languages', params: IdParam, body: TourBody, response: { 200: oneOf('tour', Tour), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => ({ tour: await updateTour(req.ctx, { ...(req.body as object), id: req.params.id }) }));
  app.post('/languages', {
    config: writeConfig, preValidation: unwrap('language'),
    schema: { tags, summary: 'Create a language (staff)', body: LanguageBody, response: { 201: oneOf('language', Language), ...errorResponses(400, 401, 403, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ language: await createLanguage(req.ctx, req.body) }));
};
