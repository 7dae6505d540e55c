// The manage-booking pages: the order, a document, cancelling (a confirmation page showing the
// refund, then the POST), and moving a ticket to another free slot (a day's free slots, then
// the POST). Every handler opens the order through the link's token (domain/shop); after a
// change the visitor is sent back to the order page (303, so a reload does not repeat it).
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../../domain/context.ts';
import { contentDisposition } from '../../../domain/documents/filename.ts';
import { invalid, notFound } from '../../../domain/errors.ts';
import { cancelByVisitor, getManagedOrder, managedDocument, refundPreview } from '../../../domain/shop/manageBooking.ts';
import { freeSlotsForMove, moveBooking } from '../../../domain/shop/moveBooking.ts';
import { getShopSettings } from '../../../domain/shop/settings.ts';
import { ticketTitles, tourTitles } from '../../../domain/staff/labels.ts';
import { isValidDate, localDateOf, parseTimestamp } from '../../../domain/time.ts';
import { anonymous } from '../../../domain/principal.ts';
import { paymentProviders } from '../../../providers/payments/index.ts';
import { formatters, translator } from './i18n.ts';
import type { ManageDeps } from './plugin.ts';
import { renderManage } from './render.ts';

type Params = { token: string; item?: string; id?: string };

const ids = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (typeof x === 'string' && /^\d{1,12}$/.test(x) ? Number(x) : NaN)).filter((n) => Number.isSafeInteger(n) && n > 0);

function positive(v: string | undefined): number {
  if (!v || !/^\d{1,12}$/.test(v)) throw notFound('order');
  return Number(v);
}

export function manageRoutes(deps: ManageDeps): FastifyPluginAsync {
  const ctxOf = (): Ctx => ({ db: deps.db, clock: deps.clock, config: deps.config, principal: anonymous });

  async function frame(req: FastifyRequest) {
    const s = await getShopSettings(deps);
    return { shopTitle: s.title[req.manageLocale] ?? s.title.de ?? Object.values(s.title)[0] ?? '' };
  }

  async function labels(ctx: Ctx, items: Array<{ id: number; ticketId: number | null; tourId: number | null; type: string }>, locale: string) {
    const tix = await ticketTitles(ctx.db, items.flatMap((i) => (i.ticketId ? [i.ticketId] : [])), locale);
    const tours = await tourTitles(ctx.db, items.flatMap((i) => (i.tourId ? [i.tourId] : [])), locale);
    return Object.fromEntries(items.map((i) => [i.id, (i.ticketId && tix.get(i.ticketId)) || (i.tourId && tours.get(i.tourId)) || i.type]));
  }

  return async (app: FastifyInstance) => {
    app.get('/:token', { schema: { hide: true } }, async (req, reply) => {
      const { token } = req.params as Params;
      const ctx = ctxOf();
      const m = await getManagedOrder(ctx, token);
      const q = req.query as Record<string, unknown>;
      const t = translator(req.manageLocale);
      const fmt = formatters(req.manageLocale);
      const notice = q.notice === 'moved' ? t('notice.moved')
        : q.notice === 'cancelled' && typeof q.refunded === 'string' && /^\d{1,9}$/.test(q.refunded) ? t('notice.cancelled', { amount: fmt.money(Number(q.refunded), m.order.currency) })
        : null;
      const active = m.order.items.filter((i) => i.status === 'active');
      return renderManage(req, reply, 'order', {
        ...(await frame(req)),
        title: t('title', { id: m.order.id }),
        token,
        notice,
        order: m.order,
        rights: Object.fromEntries(m.items),
        titles: await labels(ctx, m.order.items, req.manageLocale),
        payments: m.payments,
        canCancelAll: active.length > 1 && active.every((i) => m.items.get(i.id)?.cancellable),
      });
    });

    app.get('/:token/documents/:id', { schema: { hide: true } }, async (req, reply) => {
      const { token, id } = req.params as Params;
      const file = await managedDocument(ctxOf(), token, positive(id));
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('cache-control', 'private, no-store')
        .send(file.content);
    });

    app.get('/:token/cancel', { schema: { hide: true } }, async (req, reply) => {
      const { token } = req.params as Params;
      const ctx = ctxOf();
      const m = await getManagedOrder(ctx, token);
      const wanted = ids((req.query as Record<string, unknown>).item);
      const refundCents = refundPreview(m, wanted);
      const names = await labels(ctx, m.order.items, req.manageLocale);
      const chosen = m.order.items.filter((i) => i.status === 'active' && (wanted.length === 0 || wanted.includes(i.id)));
      const fmt = formatters(req.manageLocale);
      return renderManage(req, reply, 'cancel', {
        ...(await frame(req)),
        title: translator(req.manageLocale)('cancel.title'),
        token,
        itemIds: chosen.map((i) => i.id),
        summary: chosen.map((i) => `${i.quantity} × ${names[i.id]}, ${fmt.dateTime(i.startAt, i.zone)}`).join('; '),
        refundCents,
        currency: m.order.currency,
      });
    });

    app.post('/:token/cancel', { schema: { hide: true } }, async (req, reply) => {
      const { token } = req.params as Params;
      const r = await cancelByVisitor(ctxOf(), paymentProviders(deps.config), token, ids((req.body as Record<string, unknown>).item));
      return see(reply, `/shop/manage/${token}?notice=cancelled&refunded=${r.refundedCents}`);
    });

    app.get('/:token/move/:item', { schema: { hide: true } }, async (req, reply) => {
      const { token, item } = req.params as Params;
      const ctx = ctxOf();
      const itemId = positive(item);
      const m = await getManagedOrder(ctx, token);
      const it = m.order.items.find((i) => i.id === itemId);
      if (!it) throw notFound('order');
      const q = req.query as Record<string, unknown>;
      const date = typeof q.date === 'string' && isValidDate(q.date) ? q.date : localDateOf(it.startAt, it.zone);
      const free = await freeSlotsForMove(ctx, token, itemId, date);
      return renderManage(req, reply, 'move', {
        ...(await frame(req)),
        title: translator(req.manageLocale)('move.title'),
        token,
        item: it,
        itemTitle: (await labels(ctx, [it], req.manageLocale))[it.id],
        date,
        zone: free.zone,
        slots: free.slots,
      });
    });

    app.post('/:token/move/:item', { schema: { hide: true } }, async (req, reply) => {
      const { token, item } = req.params as Params;
      const start = (req.body as Record<string, unknown>).start;
      const at = typeof start === 'string' ? parseTimestamp(start, deps.config.zone) : null;
      if (!at) throw invalid('booking could not be moved', ['choose a time']);
      await moveBooking(ctxOf(), token, { itemId: positive(item), startAt: at });
      return see(reply, `/shop/manage/${token}?notice=moved`);
    });
  };
}

function see(reply: FastifyReply, url: string) {
  return reply.code(303).header('location', url).send();
}
