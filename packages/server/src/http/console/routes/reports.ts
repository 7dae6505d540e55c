// Reports (engineer B): sales by day, product or channel with net, VAT and gross per rate, and
// visitors by hour, for a date range and the user's museums; both also as CSV for German Excel.
// The figures come from domain/reports; this module only reads the form and picks the view.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { salesCsv, visitorsCsv } from '../../../domain/reports/reportCsv.ts';
import { salesReport } from '../../../domain/reports/sales.ts';
import type { SalesDimension } from '../../../domain/reports/salesLines.ts';
import { visitorsReport } from '../../../domain/reports/visitors.ts';
import { reportMuseums } from '../../../domain/reports/range.ts';
import { addDays, localDateOf } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import type { ConsoleDeps } from './deps.ts';
import { renderPage } from './render.ts';

const DIMENSIONS: SalesDimension[] = ['day', 'ticket', 'channel'];

/** The form's values; missing dates default to the last 7 days (museum-local, instance zone). */
function formOf(req: FastifyRequest) {
  const q = req.query;
  const today = localDateOf(req.staffCtx.clock.now(), req.staffCtx.config.zone);
  const by = field(q, 'by', 10) as SalesDimension;
  const museum = field(q, 'museum_id', 12);
  return {
    from: field(q, 'from', 20) || addDays(today, -6),
    to: field(q, 'to', 20) || today,
    by: DIMENSIONS.includes(by) ? by : 'day',
    // A museum that is not a number is no museum at all: "not found", like another museum's id.
    museum_id: museum ? (intParam(museum) ?? -1) : undefined,
  };
}

function csv(reply: FastifyReply, name: string, body: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

export const reportPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/reports', action: 'reports.view' }, async (req, reply) => {
    const form = formOf(req);
    const ctx = req.staffCtx;
    const museums = await reportMuseums(ctx, req.consoleLocale);
    const query = new URLSearchParams({ from: form.from, to: form.to, by: form.by, ...(form.museum_id ? { museum_id: String(form.museum_id) } : {}) }).toString();
    const page = { title: translator(req.consoleLocale)('reports.title'), form, museums, query, currency: ctx.config.currency };
    try {
      const [sales, visitors] = await Promise.all([
        salesReport(ctx, { ...form, locale: req.consoleLocale }),
        visitorsReport(ctx, form),
      ]);
      return renderPage(req, reply, 'reports/index', { ...page, sales, visitors, problems: [] });
    } catch (err) {
      // A bad range is answered on the form itself, with what is wrong, and nothing else.
      if (!(err instanceof DomainError) || err.code !== 'VALIDATION_FAILED') throw err;
      return renderPage(req, reply, 'reports/index', { ...page, sales: null, visitors: null, problems: err.errors ?? [err.message] }, 422);
    }
  });
  consoleRoute(app, { method: 'GET', url: '/reports/sales.csv', action: 'reports.view' }, async (req, reply) => {
    const form = formOf(req);
    const r = await salesReport(req.staffCtx, { ...form, locale: req.consoleLocale });
    return csv(reply, `sales-${form.by}-${r.from}-${r.to}.csv`, salesCsv(r, req.consoleLocale));
  });
  consoleRoute(app, { method: 'GET', url: '/reports/visitors.csv', action: 'reports.view' }, async (req, reply) => {
    const form = formOf(req);
    const r = await visitorsReport(req.staffCtx, form);
    return csv(reply, `visitors-${r.from}-${r.to}.csv`, visitorsCsv(r, req.consoleLocale));
  });
};
