// Payments of an order (docs/payments.md): list payments and refunds, start a payment on a
// provider's page, confirm it when the visitor returns, record money taken outside, refund and
// retry a failed refund. The providers' notifications and the demo page are in webhooks.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses } from '../../schemas/common.ts';
import { confirmOnReturn } from '../../../../domain/payments/confirmPayment.ts';
import { serializeOrderPayments, serializePayment, serializeRefund } from '../../../../domain/payments/json.ts';
import { listPayments } from '../../../../domain/payments/listPayments.ts';
import { recordPayment } from '../../../../domain/payments/recordPayment.ts';
import { refundOrder, retryRefund } from '../../../../domain/payments/refunds.ts';
import { startPayment } from '../../../../domain/payments/startPayment.ts';
import { payWithGiftCard } from '../../../../domain/vouchers/redeem.ts';
import { paymentProviders } from '../../../../providers/payments/index.ts';
import {
  CheckoutAnswer, CheckoutBody, OrderIdParam, OrderPayments, PaymentEnvelope, PaymentParam, RecordPaymentBody, RefundBody, RefundEnvelope, RefundList,
  RefundParam,
} from './schemas.ts';
import { paymentWebhookRoutes } from './webhooks.ts';
import { named } from '../../../plugin-name.ts';

const read = tokenOnly(['user', 'reseller'], ['orders', 'read']);
const pay = tokenOnly(['user', 'reseller'], ['orders', 'write']);
// Recording money and giving it back are staff matters: users with the orders right only.
const staff = tokenOnly(['user'], ['orders', 'write']);
const tags = ['payments'];

export const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const providers = (req: FastifyRequest) => paymentProviders(req.ctx.config);
  const zone = (req: FastifyRequest) => req.ctx.config.zone;

  app.get(
    '/orders/:id/payments',
    {
      config: { access: read, cache: 'live' },
      schema: {
        tags,
        summary: "An order's payments and refunds, and its payment status",
        params: OrderIdParam,
        response: { 200: OrderPayments, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => serializeOrderPayments(await listPayments(req.ctx, req.params.id), zone(req)),
  );

  app.post(
    '/orders/:id/payments',
    {
      config: { access: staff, cache: 'live' },
      preValidation: unwrap('payment'),
      schema: {
        tags,
        summary: 'Record money taken outside (desk: cash or card terminal; invoice: transfer received)',
        params: OrderIdParam,
        body: RecordPaymentBody,
        response: { 201: PaymentEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const p = b.provider === 'gift_card'
        ? await payWithGiftCard(req.ctx, req.params.id, { code: b.code ?? '', amount_cents: b.amount_cents })
        : await recordPayment(req.ctx, providers(req), req.params.id, { provider: b.provider, amount_cents: b.amount_cents, ...(b.method ? { method: b.method } : {}) });
      reply.code(201);
      return { payment: serializePayment(p, zone(req)) };
    },
  );

  app.post(
    '/orders/:id/checkout',
    {
      config: { access: pay, cache: 'live' },
      schema: {
        tags,
        summary: "Start a payment of what is due on a provider's page (stripe, mollie, demo)",
        params: OrderIdParam,
        body: CheckoutBody,
        response: { 201: CheckoutAnswer, ...errorResponses(400, 401, 403, 404, 415, 422, 502) },
      },
    },
    async (req, reply) => {
      const r = await startPayment(req.ctx, providers(req), req.params.id, req.body);
      reply.code(201);
      return { payment: serializePayment(r.payment, zone(req)), redirect_url: r.redirectUrl };
    },
  );

  app.post(
    '/orders/:id/payments/:payment_id/confirm',
    {
      config: { access: pay, cache: 'live' },
      schema: {
        tags,
        summary: 'The visitor is back from the payment page: ask the provider and settle the order',
        params: PaymentParam,
        response: { 200: PaymentEnvelope, ...errorResponses(401, 403, 404, 422, 502) },
      },
    },
    async (req) => {
      const r = await confirmOnReturn(req.ctx, providers(req), req.params.id, req.params.payment_id);
      return { payment: serializePayment(r.payment, zone(req)) };
    },
  );

  app.post(
    '/orders/:id/refunds',
    {
      config: { access: staff, cache: 'live' },
      preValidation: unwrap('refund'),
      schema: {
        tags,
        summary: "Refund part or all of what was paid, across the order's payments",
        params: OrderIdParam,
        body: RefundBody,
        response: { 201: RefundList, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const rs = await refundOrder(req.ctx, providers(req), req.params.id, req.body);
      reply.code(201);
      return { refunds: rs.map((r) => serializeRefund(r, zone(req))) };
    },
  );

  app.post(
    '/orders/:id/refunds/:refund_id/retry',
    {
      config: { access: staff, cache: 'live' },
      schema: {
        tags,
        summary: 'Send a failed refund to its provider again',
        params: RefundParam,
        response: { 200: RefundEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ refund: serializeRefund(await retryRefund(req.ctx, providers(req), req.params.id, req.params.refund_id), zone(req)) }),
  );

  await app.register(named(paymentWebhookRoutes));
};
