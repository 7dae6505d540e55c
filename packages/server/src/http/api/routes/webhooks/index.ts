// Webhook endpoints (docs/webhooks.md): a reseller or a user account with the webhooks right
// registers https endpoints for event types; every delivery attempt is listed and can be
// replayed; a test event checks the receiver and its signature verification.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { createWebhook } from '../../../../domain/webhooks/createWebhook.ts';
import { listDeliveries, retryDelivery, testWebhook, type DeliveryView } from '../../../../domain/webhooks/deliveries.ts';
import { deleteWebhook, getWebhook, listWebhooks, updateWebhook } from '../../../../domain/webhooks/manageWebhooks.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  DeliveryEnvelope, DeliveryList, DeliveryParam, WebhookCreated, WebhookEnvelope, WebhookInput, WebhookList, WebhookListQuery, WebhookParam, WebhookPatch,
} from '../../schemas/webhooks.ts';
import { notifySettingsRoutes } from './notifySettings.ts';
import { serializeDelivery, serializeWebhook } from './serialize.ts';
import { named } from '../../../plugin-name.ts';

const read = tokenOnly(['user', 'reseller'], ['webhooks', 'read']);
const write = tokenOnly(['user', 'reseller'], ['webhooks', 'write']);
const tags = ['webhooks'];

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(named(notifySettingsRoutes));
  const zone = (req: FastifyRequest) => req.ctx.config.zone;
  const delivery = (req: FastifyRequest, d: DeliveryView) => ({ delivery: serializeDelivery(d, zone(req)) });

  app.post(
    '/webhooks',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('webhook'),
      schema: {
        tags,
        summary: 'Register a webhook endpoint; the answer carries its signing secret, shown this once',
        body: WebhookInput,
        response: { 201: WebhookCreated, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (req, reply) => {
      const { webhook, secret } = await createWebhook(req.ctx, req.body);
      reply.code(201);
      return { webhook: { ...serializeWebhook(webhook, zone(req)), secret } };
    },
  );

  app.get(
    '/webhooks',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: "The account's webhook endpoints", querystring: WebhookListQuery, response: { 200: WebhookList, ...errorResponses(401, 403, 422) } } },
    async (req) => {
      const r = await listWebhooks(req.ctx, req.query);
      return { webhooks: r.webhooks.map((w) => serializeWebhook(w, zone(req))), meta: { total_count: r.total, page: r.page, per_page: r.perPage } };
    },
  );

  app.get(
    '/webhooks/:id',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'One webhook endpoint', params: WebhookParam, response: { 200: WebhookEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => ({ webhook: serializeWebhook(await getWebhook(req.ctx, req.params.id), zone(req)) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('webhook'),
      schema: { tags, summary: 'Change url, events, description; enabled: true re-enables', params: WebhookParam, body: WebhookPatch, response: { 200: WebhookEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (req) => ({ webhook: serializeWebhook(await updateWebhook(req.ctx, req.params.id, req.body), zone(req)) }),
  );

  app.delete(
    '/webhooks/:id',
    { config: { access: write, cache: 'live' }, schema: { tags, summary: 'Delete a webhook endpoint (no further deliveries)', params: WebhookParam, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 422) } } },
    async (req, reply) => {
      await deleteWebhook(req.ctx, req.params.id);
      reply.code(204);
      return null;
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'Deliveries of this endpoint, newest first, with every attempt', params: WebhookParam, querystring: WebhookListQuery, response: { 200: DeliveryList, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => {
      const r = await listDeliveries(req.ctx, req.params.id, req.query);
      return { deliveries: r.deliveries.map((d) => serializeDelivery(d, zone(req))), meta: { total_count: r.total, page: r.page, per_page: r.perPage } };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    { config: { access: write, cache: 'live' }, schema: { tags, summary: 'Deliver this event again now (a fresh retry schedule)', params: DeliveryParam, response: { 202: DeliveryEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req, reply) => {
      const d = await retryDelivery(req.ctx, req.params.id, req.params.delivery_id);
      reply.code(202);
      return delivery(req, d);
    },
  );

  app.post(
    '/webhooks/:id/test',
    { config: { access: write, cache: 'live' }, schema: { tags, summary: 'Send a webhook.test event to this endpoint', params: WebhookParam, response: { 202: DeliveryEnvelope, ...errorResponses(401, 403, 404, 422) } } },
    async (req, reply) => {
      const d = await testWebhook(req.ctx, req.params.id);
      reply.code(202);
      return delivery(req, d);
    },
  );
};
