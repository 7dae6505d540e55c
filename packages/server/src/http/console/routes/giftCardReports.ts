// Gift-card reports in the console: the outstanding value of valid cards (a liability until
// redeemed or expired) and the ledger's movements of a date range per kind (issued, redeemed,
// refunded, expired, corrected), each also as CSV. The figures are domain/reports/giftCards.ts's,
// as the API's; cards are the instance's, so the page is the instance's too.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { giftCardLedgerCsv, giftCardLedgerReport, giftCardLiability, liabilityCsv } from '../../../domain/reports/giftCards.ts';
import { addDays, localDateOf } from '../../../domain/time.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { consoleRoute, field } from './kit.ts';
import { renderPage } from './render.ts';

function rangeOf(req: FastifyRequest) {
  const today = localDateOf(req.staffCtx.clock.now(), req.staffCtx.config.zone);
  return { from: field(req.query, 'from', 20) || addDays(today, -29), to: field(req.query, 'to', 20) || today };
}

const csv = (reply: FastifyReply, name: string, body: string) =>
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).header('cache-control', 'no-store').send(body);

export const giftCardReportPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/reports/gift-cards', action: 'giftcards.reports' }, async (req, reply) => {
    const form = rangeOf(req);
    const page = { title: translator(req.consoleLocale)('gcreports.title'), form, query: new URLSearchParams(form).toString() };
    const liability = await giftCardLiability(req.staffCtx);
    try {
      const ledger = await giftCardLedgerReport(req.staffCtx, form.from, form.to);
      return renderPage(req, reply, 'reports/giftcards', { ...page, liability, ledger, problems: [] });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'VALIDATION_FAILED') throw err;
      return renderPage(req, reply, 'reports/giftcards', { ...page, liability, ledger: null, problems: err.errors ?? [err.message] }, 422);
    }
  });

  consoleRoute(app, { method: 'GET', url: '/reports/gift-cards/ledger.csv', action: 'giftcards.reports' }, async (req, reply) => {
    const { from, to } = rangeOf(req);
    return csv(reply, `gift-card-ledger-${from}-${to}`, await giftCardLedgerCsv(req.staffCtx, from, to));
  });

  consoleRoute(app, { method: 'GET', url: '/reports/gift-cards/liability.csv', action: 'giftcards.reports' }, async (req, reply) => {
    const r = await giftCardLiability(req.staffCtx);
    return csv(reply, `gift-card-liability-${r.at.slice(0, 10)}`, liabilityCsv(r));
  });
};
