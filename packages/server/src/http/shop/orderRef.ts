// The order a shop page names by its unguessable token in the path.
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../domain/errors.ts';
import { getOrder } from '../../domain/orders/getOrder.ts';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** The order named by the path's token; a number (an order id) is never accepted here. */
export async function orderOf(req: FastifyRequest) {
  const token = (req.params as Record<string, string>).token ?? '';
  if (!TOKEN.test(token) || /^\d+$/.test(token)) throw notFound('order');
  return getOrder(req.shopCtx, token);
}

