// Orders (docs/api-contract.md §7): create (optionally finalize), finalize, cancel, update while pending, and
// reads for resellers (own orders) and users with orders rights (their museums).
import { unwrap } from '../../unwrap.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tokenOnly } from '../../access.ts';
import { cancelOrder } from '../../../../domain/orders/cancelOrder.ts';
import { createOrder } from '../../../../domain/orders/createOrder.ts';
import { finalizeOrder } from '../../../../domain/orders/finalizeOrder.ts';
import { getOrder } from '../../../../domain/orders/getOrder.ts';
import { getOrderByBarcode } from '../../../../domain/orders/getOrderByBarcode.ts';
import { listOrders } from '../../../../domain/orders/listOrders.ts';
import { updateOrder } from '../../../../domain/orders/updateOrder.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  BarcodeParam, CancelBody, CreateOrderBody, ListOrdersQuery, OrderEnvelope, OrderList, OrderParam, UpdateOrderBody,
} from '../../schemas/orders.ts';
import { serializeOrder } from '../../../../domain/orders/json.ts';
import { refundAfterCancellation } from '../../../../domain/payments/refunds.ts';
import { paymentProviders } from '../../../../providers/payments/index.ts';

const write = tokenOnly(['user', 'reseller'], ['orders', 'write']);
const read = tokenOnly(['user', 'reseller'], ['orders', 'read']);
const tags = ['orders'];

export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const one = (req: FastifyRequest, o: Parameters<typeof serializeOrder>[0]) => ({ order: serializeOrder(o, req.ctx.config.zone) });

  app.post(
    '/orders',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('order'),
      schema: {
        tags,
        summary: 'Create an order (all items or none); with foreign_id a repeat returns the existing order',
        body: CreateOrderBody,
        response: { 200: OrderEnvelope, 201: OrderEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const { order, replayed } = await createOrder(req.ctx, req.body);
      if (replayed) reply.header('idempotent-replayed', 'true');
      // The answer is returned, not sent with `return reply.send(…)`: an async handler that returns
      // `reply` (a thenable) makes Fastify wait for the response's end with stream listeners.
      reply.code(replayed ? 200 : 201);
      return one(req, order);
    },
  );

  app.get(
    '/orders',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'List visible orders (filters foreign_id, status, start_at/end_at, updated_since)',
        querystring: ListOrdersQuery,
        response: { 200: OrderList, ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const r = await listOrders(req.ctx, req.query);
      return {
        orders: r.orders.map((o) => serializeOrder(o, req.ctx.config.zone)),
        meta: { total_count: r.total, page: r.page, per_page: r.perPage },
      };
    },
  );

  app.get(
    '/orders/barcode/:code',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'The order a barcode belongs to',
        params: BarcodeParam,
        response: { 200: OrderEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => one(req, await getOrderByBarcode(req.ctx, req.params.code)),
  );

  app.get(
    '/orders/:id',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: 'One order by numeric id or order token',
        params: OrderParam,
        response: { 200: OrderEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => one(req, await getOrder(req.ctx, req.params.id)),
  );

  app.put(
    '/orders/:id',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('order'),
      schema: {
        tags,
        summary: 'Change comment, reference or customer of a pending order',
        params: OrderParam,
        body: UpdateOrderBody,
        response: { 200: OrderEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req) => one(req, await updateOrder(req.ctx, req.params.id, req.body)),
  );

  app.post(
    '/orders/:id/finalize',
    {
      config: { access: write, cache: 'live' },
      schema: {
        tags,
        summary: 'Make a pending order binding and issue barcodes (safe to repeat)',
        params: OrderParam,
        response: { 200: OrderEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => one(req, await finalizeOrder(req.ctx, req.params.id)),
  );

  app.post(
    '/orders/:id/cancellations',
    {
      config: { access: write, cache: 'live' },
      schema: {
        tags,
        summary: 'Cancel items (item_ids) or the whole order; releases their capacity once',
        params: OrderParam,
        body: Type.Optional(CancelBody),
        response: { 200: OrderEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req) => {
      const order = await cancelOrder(req.ctx, req.params.id, req.body ?? {});
      // After the cancellation committed: the paid amount beyond the new total goes back.
      if (req.body?.refund === true) await refundAfterCancellation(req.ctx, paymentProviders(req.ctx.config), req.params.id);
      return one(req, order);
    },
  );
};
