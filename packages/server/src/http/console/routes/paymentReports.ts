// The payment reconciliation page: payments confirmed and refunds done per provider and day with
// totals, every single entry with the provider's reference, and the same entries as CSV, for the
// user's museums and a date range. The figures are domain/reports/payments.ts's, as the API's.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { paymentMoves, paymentsReport, paymentsReportCsv } from '../../../domain/reports/payments.ts';
import { reportMuseums } from '../../../domain/reports/range.ts';
import { addDays, localDateOf } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { renderPage } from './render.ts';

/** The form's values; missing dates default to the last 7 days (as the other reports). */
function formOf(req: FastifyRequest) {
  const q = req.query;
  const today = localDateOf(req.staffCtx.clock.now(), req.staffCtx.config.zone);
  const museum = field(q, 'museum_id', 12);
  return {
    from: field(q, 'from', 20) || addDays(today, -6),
    to: field(q, 'to', 20) || today,
    museum_id: museum ? (intParam(museum) ?? -1) : undefined,
  };
}

export const paymentReportPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/reports/payments', action: 'reports.view' }, async (req, reply) => {
    const form = formOf(req);
    const ctx = req.staffCtx;
    const museums = await reportMuseums(ctx, req.consoleLocale);
    const query = new URLSearchParams({ from: form.from, to: form.to, ...(form.museum_id ? { museum_id: String(form.museum_id) } : {}) }).toString();
    const page = { title: translator(req.consoleLocale)('preports.title'), form, museums, query, currency: ctx.config.currency };
    try {
      const [report, moves] = await Promise.all([paymentsReport(ctx, form), paymentMoves(ctx, form)]);
      return renderPage(req, reply, 'reports/payments', { ...page, report, moves, problems: [] });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'VALIDATION_FAILED') throw err;
      return renderPage(req, reply, 'reports/payments', { ...page, report: null, moves: [], problems: err.errors ?? [err.message] }, 422);
    }
  });

  consoleRoute(app, { method: 'GET', url: '/reports/payments.csv', action: 'reports.view' }, async (req, reply) => {
    const r = await paymentsReportCsv(req.staffCtx, formOf(req));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="payments-${r.from}-${r.to}.csv"`)
      .header('cache-control', 'no-store')
      .send(r.csv);
  });
};
