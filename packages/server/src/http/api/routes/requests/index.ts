// Group booking requests (docs/api-contract.md §9): partners and staff ask for tours on a date; staff accept
// (a finalized booking order is made, capacity checked) or decline; the requester may withdraw
// while pending. Reads: resellers their own, users with requests rights their museums.
import { unwrap } from '../../unwrap.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { acceptRequest } from '../../../../domain/requests/acceptRequest.ts';
import { createRequest } from '../../../../domain/requests/createRequest.ts';
import { declineRequest } from '../../../../domain/requests/declineRequest.ts';
import { getRequest } from '../../../../domain/requests/getRequest.ts';
import type { RequestView } from '../../../../domain/requests/internal.ts';
import { listRequests } from '../../../../domain/requests/listRequests.ts';
import { withdrawRequest } from '../../../../domain/requests/withdrawRequest.ts';
import { errorResponses } from '../../schemas/common.ts';
import { CreateRequestBody, DeclineBody, ListRequestsQuery, RequestEnvelope, RequestList, RequestParam } from '../../schemas/requests.ts';
import { serializeRequest } from '../../../../domain/requests/json.ts';

const write = tokenOnly(['user', 'reseller'], ['requests', 'write']);
const read = tokenOnly(['user', 'reseller'], ['requests', 'read']);
const staff = tokenOnly(['user'], ['requests', 'write']);
const tags = ['requests'];

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const one = (req: FastifyRequest, r: RequestView) => ({ request: serializeRequest(r, req.ctx.config.zone) });

  app.post(
    '/requests',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('request'),
      schema: {
        tags,
        summary: 'Create a group booking request; with foreign_id a repeat returns the existing request',
        body: CreateRequestBody,
        response: { 200: RequestEnvelope, 201: RequestEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const { request, replayed } = await createRequest(req.ctx, req.body);
      if (replayed) reply.header('idempotent-replayed', 'true');
      reply.code(replayed ? 200 : 201);
      return one(req, request);
    },
  );

  app.get(
    '/requests',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'List visible requests (filters foreign_id, status, updated_since)',
        querystring: ListRequestsQuery,
        response: { 200: RequestList, ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const r = await listRequests(req.ctx, req.query);
      return {
        requests: r.requests.map((x) => serializeRequest(x, req.ctx.config.zone)),
        meta: { total_count: r.total, page: r.page, per_page: r.perPage },
      };
    },
  );

  app.get(
    '/requests/:id',
    {
      config: { access: read, cache: 'live' },
      schema: { tags, summary: 'One request', params: RequestParam, response: { 200: RequestEnvelope, ...errorResponses(401, 403, 404, 422) } },
    },
    async (req) => one(req, await getRequest(req.ctx, req.params.id)),
  );

  app.post(
    '/requests/:id/accept',
    {
      config: { access: staff, cache: 'live' },
      schema: {
        tags,
        summary: 'Accept a pending request: books and finalizes an order for its tours (capacity checked, all or nothing)',
        params: RequestParam,
        response: { 200: RequestEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => one(req, await acceptRequest(req.ctx, req.params.id)),
  );

  app.post(
    '/requests/:id/decline',
    {
      config: { access: staff, cache: 'live' },
      preValidation: unwrap('request'),
      schema: {
        tags,
        summary: 'Decline a pending request with a reason',
        params: RequestParam,
        body: Type.Optional(DeclineBody),
        response: { 200: RequestEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req) => one(req, await declineRequest(req.ctx, req.params.id, req.body ?? {})),
  );

  app.post(
    '/requests/:id/withdraw',
    {
      config: { access: write, cache: 'live' },
      schema: {
        tags,
        summary: 'Withdraw your own pending request',
        params: RequestParam,
        response: { 200: RequestEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => one(req, await withdrawRequest(req.ctx, req.params.id)),
  );
};
