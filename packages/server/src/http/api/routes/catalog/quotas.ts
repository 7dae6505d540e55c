import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createQuota } from '../../../../domain/catalog/createQuota.ts';
import { deleteQuotaOverride } from '../../../../domain/catalog/deleteQuotaOverride.ts';
import { getQuota } from '../../../../domain/catalog/getQuota.ts';
import { listQuotas } from '../../../../domain/catalog/listQuotas.ts';
import { setQuotaOverride } from '../../../../domain/catalog/setQuotaOverride.ts';
import { updateQuota } from '../../../../domain/catalog/updateQuota.ts';
import { DateString, Id, IdList, listOf, oneOf, Quota } from '../../schemas/catalog.ts';
import { QuotaBody, QuotaOverrideBody } from '../../schemas/catalogWrite.ts';
import { errorResponses, IdParam, PageQuery } from '../../schemas/common.ts';
import { staffReadConfig, unwrap, writeConfig } from './common.ts';

const OverrideParams = Type.Object({ id: Id, date: DateString });

export const quotaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['catalogue'];
  app.get('/quotas', {
    config: staffReadConfig,
    schema: {
      tags, summary: 'Quotas with capacity and per-date overrides (staff)',
      querystring: Type.Object({ ...PageQuery, by_museum_ids: Type.Optional(IdList) }),
      response: { 200: listOf('quotas', Quota), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const page = await listQuotas(req.ctx, req.query);
    return { quotas: page.items, meta: page.meta };
  });
  app.get('/quotas/:id', {
    config: staffReadConfig,
    schema: { tags, summary: 'One quota (staff)', params: IdParam, response: { 200: oneOf('quota', Quota), ...errorResponses(401, 403, 404, 422) } },
  }, async (req) => ({ quota: await getQuota(req.ctx, { id: req.params.id }) }));
  app.post('/quotas', {
    config: writeConfig, preValidation: unwrap('quota'),
    schema: { tags, summary: 'Create a quota (staff)', body: QuotaBody, response: { 201: oneOf('quota', Quota), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req, reply) => reply.code(201).send({ quota: await createQuota(req.ctx, req.body) }));
  app.put('/quotas/:id', {
    config: writeConfig, preValidation: unwrap('quota'),
    schema: { tags, summary: 'Change a quota (staff)', params: IdParam, body: QuotaBody, response: { 200: oneOf('quota', Quota), ...errorResponses(400, 401, 403, 404, 415, 422) } },
  }, async (req) => {
    const { museum_id: _ignored, ...changes } = req.body;
    return { quota: await updateQuota(req.ctx, { ...(changes as object), id: req.params.id }) };
  });
  app.put('/quotas/:id/overrides/:date', {
    config: writeConfig, preValidation: unwrap('override'),
    schema: {
      tags, summary: 'Set (capacity n) or close (capacity null) one date of a quota (staff)', params: OverrideParams, body: QuotaOverrideBody,
      response: { 200: oneOf('quota', Quota), ...errorResponses(400, 401, 403, 404, 415, 422) },
    },
  }, async (req) => ({ quota: await setQuotaOverride(req.ctx, { ...req.params, capacity: req.body.capacity }) }));
  app.delete('/quotas/:id/overrides/:date', {
    config: writeConfig,
    schema: { tags, summary: 'Remove the override of one date (staff)', params: OverrideParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) } },
  }, async (req, reply) => {
    await deleteQuotaOverride(req.ctx, req.params);
    return reply.code(204).send(null);
  });
};
