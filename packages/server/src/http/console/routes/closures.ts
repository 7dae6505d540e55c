// Closures in the console (engineer B): the form posts to /closures/preview, which shows the
// live orders the closure would hit (previewClosure: the same checks and the same affected rule
// as createClosure); confirming posts the same fields to /closures. Reopening deletes a closure.
// Writes run with their audit entry in one transaction (audited).
import type { FastifyPluginAsync } from 'fastify';
import { audited } from '../../../domain/audit/audited.ts';
import { sendPendingRefunds } from '../../../domain/payments/refunds.ts';
import { createClosure } from '../../../domain/schedules/createClosure.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { previewClosure } from '../../../domain/schedules/previewClosure.ts';
import { deleteClosure, getClosure } from '../../../domain/schedules/readClosures.ts';
import { notFound } from '../../../domain/errors.ts';
import { ordersNamed } from '../../../domain/staff/dayOrders.ts';
import { translator } from '../i18n.ts';
import { closureInput } from './formInput.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage, seeOther } from './render.ts';

export const closurePages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'POST', url: '/closures/preview', action: 'schedules.edit' }, async (req, reply) => {
    const input = closureInput(req.body);
    const { museum_id, affected } = await previewClosure(req.staffCtx, input);
    // Who is hit, when: the desk calls people, not order numbers.
    const orders = await ordersNamed(req.staffCtx, museum_id, affected.order_ids);
    return renderPage(req, reply, 'schedules/preview', { title: translator(req.consoleLocale)('closure.preview.title'), input: { ...input, museum_id }, affected, orders });
  });
  consoleRoute(app, { method: 'POST', url: '/closures', action: 'schedules.edit' }, async (req, reply) => {
    const input = closureInput(req.body);
    const r = await audited(req.staffCtx, (ctx) => createClosure(ctx, input), (r) => ({
      action: 'closure.create', entityType: 'closure', entityId: r.closure.id, museumId: r.closure.museum_id,
      after: { closure: r.closure, affected: r.affected, cancel_orders: input.cancel_orders === true },
    }));
    // After the commit: refunds for the paid items it cancelled go to their providers.
    if (input.cancel_orders) await sendPendingRefunds(req.staffCtx, paymentProviders(req.staffCtx.config), r.affected.order_ids);
    const notice = input.cancel_orders && r.affected.orders > 0 ? 'closurecancelled' : 'closurecreated';
    return seeOther(reply, `/console/schedules?museum_id=${r.closure.museum_id}`, notice);
  });
  consoleRoute(app, { method: 'POST', url: '/closures/:id/delete', action: 'schedules.edit' }, async (req, reply) => {
    const id = intParam((req.params as { id: string }).id);
    if (id === null) throw notFound('closure');
    const before = await getClosure(req.staffCtx, id);
    // A second page first: reopening makes the period bookable again at once, for every channel.
    if (field(req.body, 'confirm', 1) !== '1') {
      const t = translator(req.consoleLocale);
      const c = before.closure;
      const period = `${c.start_date}${c.end_date && c.end_date !== c.start_date ? ` – ${c.end_date}` : ''}${c.start_time ? `, ${c.start_time}–${c.end_time ?? '24:00'}` : ''}`;
      return renderPage(req, reply, 'confirm', {
        title: t('closure.reopen.confirm.title'), text: t('closure.reopen.confirm.text', { period, reason: c.reason || '—' }),
        action: `/console/closures/${id}/delete`, button: t('closure.reopen.confirm.button'), back: `/console/schedules?museum_id=${c.museum_id}`,
      });
    }
    await audited(req.staffCtx, (ctx) => deleteClosure(ctx, id), () => ({
      action: 'closure.delete', entityType: 'closure', entityId: id, museumId: before.closure.museum_id, before: before.closure,
    }));
    return seeOther(reply, `/console/schedules?museum_id=${before.closure.museum_id}`, 'closuredeleted');
  });
};
