// Cash closing (Kassenabschluss): the signed-in cashier's day (sales, refunds and cancellations
// per payment method, VAT per rate, the cash expected), closed once with the opening float and the
// cash counted; the closed record as a page (printable), CSV and PDF. Nothing here edits a record.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, notFound } from '../../../domain/errors.ts';
import { channelName } from '../../../domain/reports/channels.ts';
import { toCsv } from '../../../domain/reports/csv.ts';
import { parseMoney } from '../../../domain/staff/deskBasket.ts';
import { cashDay, closeCashDay, closedDay, getCashClosing, listCashClosings, type ClosingSummary } from '../../../domain/staff/cashClosing.ts';
import { formatters, translator } from '../i18n.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

const idOf = (req: FastifyRequest) => {
  const id = intParam((req.params as { id?: string }).id);
  if (id === null) throw notFound('cash closing');
  return id;
};

async function dayPage(req: FastifyRequest, reply: FastifyReply, date: string, typed: { float: string; counted: string }, errors: string[] = [], status = 200) {
  const t = translator(req.consoleLocale);
  const summary = await cashDay(req.staffCtx, { date });
  const closed = await closedDay(req.staffCtx, summary.date);
  const list = await listCashClosings(req.staffCtx);
  return renderPage(req, reply, 'closing/index', { title: t('closing.title'), summary, closed, list, typed, errors, channel: channelName('desk', req.consoleLocale) }, status);
}

export function closingCsv(summary: ClosingSummary, rec: { openingFloatCents: number; expectedCashCents: number; countedCashCents: number; differenceCents: number }, locale: 'de' | 'en'): string {
  const t = translator(locale);
  const rows: Array<Array<string | { cents: number }>> = [[t('closing.channel'), channelName('desk', locale), '']];
  for (const k of ['cash', 'card', 'invoice', 'total'] as const) rows.push([t('closing.sales'), t(k === 'total' ? 'closing.total' : `payment.${k}`), { cents: summary.sales[k] }]);
  for (const k of ['cash', 'card', 'invoice', 'total'] as const) rows.push([t('closing.refunds'), t(k === 'total' ? 'closing.total' : `payment.${k}`), { cents: summary.refunds[k] }]);
  rows.push([t('closing.cancellations'), String(summary.cancellations.lines), { cents: summary.cancellations.gross_cents }]);
  if (summary.gift_cards) for (const k of ['cash', 'card', 'total'] as const) rows.push([t('closing.giftcards.label'), t(k === 'total' ? 'closing.total' : `payment.${k}`), { cents: summary.gift_cards[k] }]);
  for (const v of summary.vat) rows.push([t('closing.vat.rate', { rate: v.vat_pct }), t('closing.vat'), { cents: v.vat_cents }]);
  rows.push([t('closing.vat.total'), t('closing.vat'), { cents: summary.vat_total.vat_cents }]);
  rows.push([t('closing.float'), '', { cents: rec.openingFloatCents }]);
  rows.push([t('closing.expected'), '', { cents: rec.expectedCashCents }]);
  rows.push([t('closing.counted'), '', { cents: rec.countedCashCents }]);
  rows.push([t('closing.difference'), '', { cents: rec.differenceCents }]);
  return toCsv([t('closing.what'), t('closing.how'), t('closing.amount')], rows);
}

export const closingPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/closing', action: 'cash.close' }, async (req, reply) =>
    dayPage(req, reply, field(req.query, 'date', 10), { float: '', counted: '' }));

  consoleRoute(app, { method: 'POST', url: '/closing', action: 'cash.close' }, async (req, reply) => {
    const t = translator(req.consoleLocale);
    const date = field(req.body, 'date', 10);
    const typed = { float: field(req.body, 'float', 12), counted: field(req.body, 'counted', 12) };
    const float = parseMoney(typed.float) ?? 0;
    const counted = parseMoney(typed.counted);
    if (Number.isNaN(float) || counted === null || Number.isNaN(counted)) return dayPage(req, reply, date, typed, [t('desk.error.amount')], 422);
    try {
      const row = await closeCashDay(req.staffCtx, { date, openingFloatCents: float, countedCashCents: counted });
      return reply.code(303).header('location', `/console/closing/${row.id}?notice=cashclosed`).send();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = domainMessage(req, err);
      return dayPage(req, reply, date, typed, [m.message, ...m.details], 422);
    }
  });

  consoleRoute(app, { method: 'GET', url: '/closing/:id', action: 'cash.close' }, async (req, reply) => {
    const rec = await getCashClosing(req.staffCtx, idOf(req));
    return renderPage(req, reply, 'closing/show', { title: translator(req.consoleLocale)('closing.record', { date: rec.businessDate }), rec, summary: rec.summary as ClosingSummary, channel: channelName('desk', req.consoleLocale) });
  });

  consoleRoute(app, { method: 'GET', url: '/closing/:id/csv', action: 'cash.close' }, async (req, reply) => {
    const rec = await getCashClosing(req.staffCtx, idOf(req));
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="kassenabschluss-${rec.businessDate}-${rec.staffUserId}.csv"`)
      .header('cache-control', 'no-store').send(closingCsv(rec.summary as ClosingSummary, rec, req.consoleLocale));
  });

  consoleRoute(app, { method: 'GET', url: '/closing/:id/pdf', action: 'cash.close' }, async (req, reply) => {
    const rec = await getCashClosing(req.staffCtx, idOf(req));
    const s = rec.summary as ClosingSummary;
    const t = translator(req.consoleLocale);
    const fmt = formatters(req.consoleLocale);
    const money = (c: number) => fmt.money(c, req.staffCtx.config.currency);
    const ms = ['cash', 'card', 'invoice'] as const;
    // Loaded when first needed, like the job worker's renderers: the PDF library is large.
    const { renderCashClosingPdf } = await import('../../../documents/render/cashClosing.ts');
    const pdf = await renderCashClosingPdf({
      title: t('closing.record', { date: rec.businessDate }),
      subtitle: `${t('closing.of', { who: s.cashier.email, day: fmt.day(rec.businessDate) })} · ${t('closing.closed.at', { at: fmt.dateTime(rec.closedAt, req.staffCtx.config.zone) })}`,
      closedAt: rec.closedAt,
      rows: [
        [t('closing.channel'), channelName('desk', req.consoleLocale)],
        ...ms.map((m): [string, string] => [`${t('closing.sales')}: ${t(`payment.${m}`)}`, money(s.sales[m])]),
        [`*${t('closing.sales')}: ${t('closing.total')}`, money(s.sales.total)], null,
        ...ms.map((m): [string, string] => [`${t('closing.refunds')}: ${t(`payment.${m}`)}`, money(0 - s.refunds[m] || 0)]),
        [`*${t('closing.refunds')}: ${t('closing.total')}`, money(0 - s.refunds.total || 0)], null,
        [t('closing.cancelled', { lines: s.cancellations.lines, amount: money(s.cancellations.gross_cents) }), ''], null,
        ...(s.gift_cards?.total ? [...(['cash', 'card'] as const).map((m): [string, string] => [`${t('closing.giftcards.label')}: ${t(`payment.${m}`)}`, money(s.gift_cards![m])]), null] : []),
        ...s.vat.map((v): [string, string] => [`${t('closing.vat.rate', { rate: v.vat_pct })} (${t('closing.gross')} ${money(v.gross_cents)})`, money(v.vat_cents)]),
        [`*${t('closing.vat.total')} (${t('closing.gross')} ${money(s.vat_total.gross_cents)})`, money(s.vat_total.vat_cents)], null,
        [t('closing.float'), money(rec.openingFloatCents)],
        [t('closing.expected'), money(rec.expectedCashCents)],
        [t('closing.counted'), money(rec.countedCashCents)],
        [`*${t('closing.difference')}`, money(rec.differenceCents)],
      ],
    });
    return reply.type('application/pdf').header('content-disposition', `inline; filename="kassenabschluss-${rec.businessDate}-${rec.staffUserId}.pdf"`)
      .header('cache-control', 'no-store').send(pdf);
  });
};
