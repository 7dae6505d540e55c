// Money of an order in the console: the payments and refunds section of the order page, a refund
// of an amount with a reason, and the retry of a refund its provider refused or never answered.
// The verbs are the API's (domain/payments/refunds.ts): they lock the order's payments, never
// return more than was received, and audit every state change naming the staff user. A refused
// form changes nothing and says why in the user's language.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, notFound } from '../../../domain/errors.ts';
import { listPayments } from '../../../domain/payments/listPayments.ts';
import { refundable, refundOrder, retryRefund } from '../../../domain/payments/refunds.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import type { StaffCtx } from '../../../domain/staff/principal.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { formatters, translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { showError } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { seeOther } from './render.ts';

/** What the order page shows of the order's money (views/orders/payments.eta). */
export async function paymentsSection(ctx: StaffCtx, orderId: number) {
  const money = await listPayments(ctx, String(orderId));
  return {
    money,
    refundableCents: money.payments.reduce((s, p) => s + refundable(p), 0),
    mayRefund: roleMay(ctx.staff.role, 'orders.refund'),
  };
}

/** An amount as typed ("12,50", "12.5", "12"): integer cents, or null when it is not one. */
export function centsOf(text: string): number | null {
  const m = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text.replace(/\s|€/g, ''));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

function orderIdOf(params: unknown): number {
  const id = intParam((params as { id?: string }).id);
  if (id === null) throw notFound('order');
  return id;
}

function refused(req: FastifyRequest, reply: FastifyReply, key: string, vars?: Record<string, string | number>) {
  const t = translator(req.consoleLocale);
  return showError(req, reply, 422, 'error.invalid', { message: t('payments.refund.refused'), details: [t(key, vars)] });
}

export const paymentPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'POST', url: '/orders/:id/refunds', action: 'orders.refund' }, async (req, reply) => {
    const id = orderIdOf(req.params);
    const ctx = req.staffCtx;
    const reason = field(req.body, 'reason', 500);
    const cents = centsOf(field(req.body, 'amount', 20));
    if (cents === null || cents === 0) return refused(req, reply, 'payments.refund.badamount');
    if (!reason) return refused(req, reply, 'payments.refund.noreason');
    try {
      const done = await refundOrder(ctx, paymentProviders(ctx.config), String(id), { amount_cents: cents, reason });
      const failed = done.some((r) => r.state !== 'done');
      return seeOther(reply, `/console/orders/${id}`, failed ? 'refundfailed' : 'refunded');
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'REFUND_EXCEEDS_PAID') throw err;
      const left = (await paymentsSection(ctx, id)).refundableCents;
      return refused(req, reply, 'payments.refund.toomuch', { max: formatters(req.consoleLocale).money(left, ctx.config.currency) });
    }
  });

  consoleRoute(app, { method: 'POST', url: '/orders/:id/refunds/:rid/retry', action: 'orders.refund' }, async (req, reply) => {
    const id = orderIdOf(req.params);
    const rid = intParam((req.params as { rid?: string }).rid);
    if (rid === null) throw notFound('refund');
    const ctx = req.staffCtx;
    const r = await retryRefund(ctx, paymentProviders(ctx.config), String(id), rid);
    return seeOther(reply, `/console/orders/${id}`, r.state === 'done' ? 'refunded' : 'refundfailed');
  });
};
