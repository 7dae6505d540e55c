// Voucher reports over the API (docs/vouchers.md): gift cards' outstanding value (liability) and
// ledger movements of a date range, promo-code usage and every discount of a range; JSON, or CSV with `format=csv` / `Accept: text/csv` like the other
// reports. User tokens with the reports right.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { giftCardLedgerCsv, giftCardLedgerReport, giftCardLiability, liabilityCsv } from '../../../../domain/reports/giftCards.ts';
import { codeDiscounts, codeDiscountsCsv, codeUsageCsv, codeUsageReport } from '../../../../domain/reports/codeUsage.ts';
import { tokenOnly } from '../../access.ts';
import { errorResponses, StringEnum } from '../../schemas/common.ts';

const access = tokenOnly(['user'], ['reports', 'read']);
const Format = Type.Optional(StringEnum(['json', 'csv'] as const));
const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD in the instance zone, both ends included.' });
const wantsCsv = (format: 'json' | 'csv' | undefined, req: FastifyRequest) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/.test(req.headers.accept ?? ''));
const csv = (reply: FastifyReply, name: string, body: string) =>
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).send(body);
const either = (schema: ReturnType<typeof Type.Object>) => ({
  200: { description: 'JSON, or CSV with format=csv or Accept: text/csv.', content: { 'application/json': { schema }, 'text/csv': { schema: Type.String() } } },
  ...errorResponses(401, 403, 422),
});

const Liability = Type.Object({
  at: Type.String(),
  rows: Type.Array(Type.Object({ currency: Type.String(), cards: Type.Integer(), outstanding_cents: Type.Integer() })),
});
const LedgerSummary = Type.Object({
  from: Type.String(),
  to: Type.String(),
  kinds: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer(), cents: Type.Integer({ description: 'Signed sum.' }) })),
});

const CodeUsage = Type.Object({
  from: Type.String(),
  to: Type.String(),
  codes: Type.Array(Type.Object({
    code: Type.String(), kind: Type.String(), partner_account_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The partner the code is attributed to.' }), uses_total: Type.Integer({ description: 'All uses so far, not only in the range.' }),
    orders: Type.Integer(), discount_cents: Type.Integer(),
  })),
});
const CodeDiscounts = Type.Object({
  from: Type.String(),
  to: Type.String(),
  discounts: Type.Array(Type.Object({ at: Type.String(), order_id: Type.Integer(), item_id: Type.Integer(), code: Type.String(), amount_cents: Type.Integer() })),
});

export const giftCardReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reports/gift_cards/liability',
    { config: { access, cache: 'live' }, schema: { tags: ['reports'], summary: 'Outstanding value of valid gift cards (a liability)', querystring: Type.Object({ format: Format }), response: either(Liability) } },
    async (req, reply) => {
      const r = await giftCardLiability(req.ctx);
      return wantsCsv(req.query.format, req) ? csv(reply, `gift-card-liability-${r.at.slice(0, 10)}`, liabilityCsv(r)) : r;
    },
  );
  app.get(
    '/reports/codes/usage',
    {
      config: { access, cache: 'live' },
      schema: { tags: ['reports'], summary: 'Promo-code usage of a range: per code its orders and discount total', querystring: Type.Object({ from: Day, to: Day, format: Format }), response: either(CodeUsage) },
    },
    async (req, reply) => {
      const r = await codeUsageReport(req.ctx, req.query.from, req.query.to);
      return wantsCsv(req.query.format, req) ? csv(reply, `code-usage-${r.from}-${r.to}`, codeUsageCsv(r)) : r;
    },
  );
  app.get(
    '/reports/codes/discounts',
    {
      config: { access, cache: 'live' },
      schema: { tags: ['reports'], summary: 'Every discount of a range: which code took how much off which order item', querystring: Type.Object({ from: Day, to: Day, format: Format }), response: either(CodeDiscounts) },
    },
    async (req, reply) => {
      const rows = await codeDiscounts(req.ctx, req.query.from, req.query.to);
      return wantsCsv(req.query.format, req) ? csv(reply, `code-discounts-${req.query.from}-${req.query.to}`, codeDiscountsCsv(rows)) : { from: req.query.from, to: req.query.to, discounts: rows };
    },
  );
  app.get(
    '/reports/gift_cards/ledger',
    {
      config: { access, cache: 'live' },
      schema: { tags: ['reports'], summary: 'Gift-card movements (issued, redeemed, refunded, expired, corrected) of a range', querystring: Type.Object({ from: Day, to: Day, format: Format }), response: either(LedgerSummary) },
    },
    async (req, reply) => {
      const { from, to } = req.query;
      if (wantsCsv(req.query.format, req)) return csv(reply, `gift-card-ledger-${from}-${to}`, await giftCardLedgerCsv(req.ctx, from, to));
      return giftCardLedgerReport(req.ctx, from, to);
    },
  );
};
