// Reports over the API: the payments reconciliation report (docs/payments.md, "Reconciliation"),
// as JSON or, with `Accept: text/csv` or `?format=csv`, as a CSV file with one line per payment
// and refund. User tokens with the `reports` right; the museums are the token's scope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { paymentsReport, paymentsReportCsv } from '../../../../domain/reports/payments.ts';
import { tokenOnly } from '../../access.ts';
import { errorResponses, Id, StringEnum } from '../../schemas/common.ts';

const Day = Type.String({ description: 'A museum-local calendar day, YYYY-MM-DD (both ends included; at most 366 days).', maxLength: 10 });
const Money = Type.Object({ count: Type.Integer(), cents: Type.Integer() });

export const PaymentsReportQuery = Type.Object({
  from: Day,
  to: Day,
  museum_id: Type.Optional(Id),
  format: Type.Optional(StringEnum(['json', 'csv'] as const)),
});

export const PaymentsReportAnswer = Type.Object({
  from: Type.String(),
  to: Type.String(),
  rows: Type.Array(
    Type.Object({
      provider: Type.String(),
      day: Type.String({ description: "Museum-local day (the order's first museum) the money moved on." }),
      confirmed: Money,
      refunded: Money,
      net_cents: Type.Integer({ description: 'confirmed.cents - refunded.cents' }),
    }),
  ),
  total: Type.Object({ confirmed: Money, refunded: Money, net_cents: Type.Integer() }),
});

const CSV_DESCRIPTION =
  'One line per payment confirmed and refund done in the range (UTF-8 with BOM, ";" between fields, decimal comma, refunds negative): ' +
  'day, provider, kind, provider_ref, order_id, payment_id, refund_id, amount, currency, state, created_at, confirmed_or_done_at.';

/** `format` wins; without it the Accept header decides. */
const wantsCsv = (format: 'json' | 'csv' | undefined, req: FastifyRequest) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/.test(req.headers.accept ?? ''));

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports/payments',
    {
      config: { access: tokenOnly(['user'], ['reports', 'read']), cache: 'live' },
      schema: {
        tags: ['reports'],
        summary: 'Payments reconciliation: money confirmed and refunded per provider and day (JSON or CSV)',
        querystring: PaymentsReportQuery,
        response: {
          200: {
            description: 'The report; as CSV with Accept: text/csv or format=csv.',
            content: {
              'application/json': { schema: PaymentsReportAnswer },
              'text/csv': { schema: Type.String({ description: CSV_DESCRIPTION }) },
            },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (req, reply) => {
      const input = { from: req.query.from, to: req.query.to, museum_id: req.query.museum_id };
      if (!wantsCsv(req.query.format, req)) return paymentsReport(req.ctx, input);
      const r = await paymentsReportCsv(req.ctx, input);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="payments-${r.from}-${r.to}.csv"`)
        .send(r.csv);
    },
  );
};
