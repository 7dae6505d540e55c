// Gift cards (docs/vouchers.md): issue, list, read with the ledger, correct, find by code (staff),
// the public balance look-up, and paying an order with a card. Codes travel only in bodies and
// in the balance look-up's query (whose value request logging masks), never in a path.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { publicRead, tokenOnly } from '../../access.ts';
import { unwrap } from '../../unwrap.ts';
import { errorResponses } from '../../schemas/common.ts';
import { DomainError } from '../../../../domain/errors.ts';
import { serializePayment } from '../../../../domain/payments/json.ts';
import { correctGiftCard, getGiftCard, issueGiftCard, listGiftCards } from '../../../../domain/vouchers/giftCards.ts';
import { serializeGiftCard, serializeLedger } from '../../../../domain/vouchers/json.ts';
import { cardOfCode, giftCardBalance, payWithGiftCard } from '../../../../domain/vouchers/redeem.ts';
import { giftCardPdfData } from '../../../../domain/vouchers/giftCardPdf.ts';
import { Type } from 'typebox';
import { GIFT_CARD_TRIES } from '../../../../ops/limiter.ts';
import { giftCardReportRoutes } from './reports.ts';
import { OrderIdParam, PaymentEnvelope } from '../payments/schemas.ts';
import {
  Balance, BalanceQuery, CodeBody, CorrectionBody, GiftCardList, GiftCardParam, GiftCardPaymentBody, GiftCardWithLedger, IssueBody, IssuedGiftCard,
  LedgerList, ListQuery,
} from './schemas.ts';
import { named } from '../../../plugin-name.ts';

const read = tokenOnly(['user'], ['orders', 'read']);
const write = tokenOnly(['user'], ['orders', 'write']);
const pay = tokenOnly(['user', 'reseller'], ['orders', 'write']);
const tags = ['gift cards'];
const Pdf = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PDF.' });

/** Balance look-ups per address and minute, on top of the general limits: codes are not for guessing. */
export const BALANCE_LOOKUPS_PER_MINUTE = GIFT_CARD_TRIES.max;

export const giftCardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const zone = (req: FastifyRequest) => req.ctx.config.zone;
  const now = (req: FastifyRequest) => req.ctx.clock.now();
  const card = (req: FastifyRequest, r: Awaited<ReturnType<typeof getGiftCard>>) => ({
    gift_card: serializeGiftCard(r.card, zone(req), now(req)),
    ledger: r.ledger.map((l) => serializeLedger(l, zone(req))),
  });

  app.post(
    '/gift_cards',
    {
      config: { access: write, cache: 'live' },
      preValidation: unwrap('gift_card'),
      schema: { tags, summary: 'Issue a gift card (its price taken at the desk, in the shop or by the caller)', body: IssueBody, response: { 201: IssuedGiftCard, ...errorResponses(400, 401, 403, 415, 422) } },
    },
    async (req, reply) => {
      const r = await issueGiftCard(req.ctx, req.body);
      reply.code(201);
      const c = card(req, r);
      return { gift_card: { ...c.gift_card, code: r.code }, ledger: c.ledger };
    },
  );

  app.get(
    '/gift_cards/:id/pdf',
    {
      config: { access: write, cache: 'live' },
      schema: { tags, summary: 'The gift card as a PDF with its code and barcode, in its language (staff who may issue cards)', params: GiftCardParam, response: { 200: Pdf, ...errorResponses(401, 403, 404, 422) } },
    },
    async (req, reply) => {
      const data = await giftCardPdfData(req.ctx, req.params.id);
      // Loaded when first needed, like the job worker's renderers: the PDF library is large.
      const { renderGiftCardPdf } = await import('../../../../documents/render/giftCard.ts');
      const pdf = await renderGiftCardPdf(data);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="gift-card-${data.last4}.pdf"`)
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(pdf);
    },
  );

  app.get(
    '/gift_cards',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'Gift cards, newest first; last4 finds a card by the end of its code', querystring: ListQuery, response: { 200: GiftCardList, ...errorResponses(401, 403, 422) } } },
    async (req) => ({ gift_cards: (await listGiftCards(req.ctx, req.query)).map((c) => serializeGiftCard(c, zone(req), now(req))) }),
  );

  app.get(
    '/gift_cards/balance',
    { config: { access: publicRead, cache: 'live' }, schema: { tags, summary: 'Balance and end of a gift card, by its code (public, rate-limited)', querystring: BalanceQuery, response: { 200: Balance, ...errorResponses(422) } } },
    async (req) => {
      await app.limiter.take(`gc:${req.ip}`, GIFT_CARD_TRIES, 'too many gift card look-ups; try again later');
      const b = await giftCardBalance(req.ctx, req.query.code);
      return { balance_cents: b.balance_cents, currency: b.currency, expires_at: b.expires_at.toISOString(), expired: b.expired };
    },
  );

  app.post(
    '/gift_cards/lookup',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'Find a gift card by its code (staff), with its ledger', body: CodeBody, response: { 200: GiftCardWithLedger, ...errorResponses(400, 401, 403, 415, 422) } } },
    async (req) => card(req, await getGiftCard(req.ctx, (await cardOfCode(req.ctx.db, req.body.code)).id)),
  );

  app.get(
    '/gift_cards/:id',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: 'A gift card with its ledger', params: GiftCardParam, response: { 200: GiftCardWithLedger, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => card(req, await getGiftCard(req.ctx, req.params.id)),
  );

  app.get(
    '/gift_cards/:id/ledger',
    { config: { access: read, cache: 'live' }, schema: { tags, summary: "A gift card's ledger, oldest first", params: GiftCardParam, response: { 200: LedgerList, ...errorResponses(401, 403, 404, 422) } } },
    async (req) => ({ ledger: (await getGiftCard(req.ctx, req.params.id)).ledger.map((l) => serializeLedger(l, zone(req))) }),
  );

  app.post(
    '/gift_cards/:id/corrections',
    {
      config: { access: write, cache: 'live' },
      schema: { tags, summary: 'Correct a balance by a signed amount, with a reason', params: GiftCardParam, body: CorrectionBody, response: { 201: GiftCardWithLedger, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (req, reply) => {
      await correctGiftCard(req.ctx, req.params.id, req.body);
      reply.code(201);
      return card(req, await getGiftCard(req.ctx, req.params.id));
    },
  );

  app.post(
    '/orders/:id/payments/gift_card',
    {
      config: { access: pay, cache: 'live' },
      schema: {
        tags: ['payments', ...tags],
        summary: 'Pay what is due, or part of it, with a gift card (a second payment pays the rest)',
        params: OrderIdParam, body: GiftCardPaymentBody, response: { 201: PaymentEnvelope, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const p = await payWithGiftCard(req.ctx, req.params.id, req.body);
      reply.code(201);
      return { payment: serializePayment(p, zone(req)) };
    },
  );

  await app.register(named(giftCardReportRoutes));
};
