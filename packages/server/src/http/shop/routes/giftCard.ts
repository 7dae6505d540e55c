// The gift-card balance page (balance and end only, as the public API answers) and paying with a
// gift card on the summary page: the card pays what is due or its whole balance
// when that is less (vouchers/redeem.ts, the same verb as the API), and the chosen provider's
// page then takes only the rest; a card that covers everything finalizes the order at once.
// Tries count against the address's gift-card budget (ops/limiter.ts), shared with the API's
// balance look-up. The typed code is never shown back, logged or put in an address: a refusal
// comes back as the summary with a message.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { localDateOf } from '../../../domain/time.ts';
import { giftCardBalance, payWithGiftCard } from '../../../domain/vouchers/redeem.ts';
import { GIFT_CARD_TRIES, type Limiter } from '../../../ops/limiter.ts';
import { field } from '../kit.ts';
import { renderPage, seeOther } from '../render.ts';
import { shopTranslator } from '../i18n.ts';
import { orderOf } from '../orderRef.ts';

/** Refusals the summary explains (messages `gc.<CODE>`); anything else is an error page. */
export const GIFT_CARD_REFUSALS = ['CODE_INVALID', 'CODE_EXHAUSTED', 'CODE_EXPIRED', 'CODE_NOT_APPLICABLE', 'PAYMENT_NOT_DUE', 'GIFT_CARD_PAYS_GIFT_CARD'] as const;

export const giftCardRoutes = (limiter: Limiter): FastifyPluginAsync => async (app) => {
  const balancePage = (req: FastifyRequest, reply: FastifyReply, data: Record<string, unknown>, status = 200) =>
    renderPage(req, reply, 'giftcard', { title: shopTranslator(req.shopLocale)('gcb.title'), balance: null, problem: null, ...data }, status);

  app.get('/gift-cards/balance', { schema: { hide: true } }, async (req, reply) => balancePage(req, reply, {}));

  app.post('/gift-cards/balance', { schema: { hide: true } }, async (req, reply) => {
    await limiter.take(`gc:${req.ip}`, GIFT_CARD_TRIES);
    try {
      // The card's last valid day: it ends at the first instant of the next one.
      const b = await giftCardBalance(req.readCtx, field(req.body, 'code', 64) || '-');
      return balancePage(req, reply, { balance: { cents: b.balance_cents, currency: b.currency, until: localDateOf(new Date(b.expires_at.getTime() - 1), req.readCtx.config.zone), expired: b.expired } });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'CODE_INVALID') throw err;
      return balancePage(req, reply, { problem: 'gc.CODE_INVALID' }, 422);
    }
  });

  app.post('/orders/:token/gift_card', { schema: { hide: true } }, async (req, reply) => {
    const order = await orderOf(req);
    if (order.status === 'finalized') return seeOther(reply, `/shop/orders/${order.token}`);
    await limiter.take(`gc:${req.ip}`, GIFT_CARD_TRIES);
    const code = field(req.body, 'code', 64);
    try {
      if (!code) throw new DomainError('CODE_INVALID', 'no code');
      await payWithGiftCard(req.shopCtx, order.token, { code });
    } catch (err) {
      const known = err instanceof DomainError && (GIFT_CARD_REFUSALS as readonly string[]).includes(err.code);
      if (!known) throw err;
      return seeOther(reply, `/shop/orders/${order.token}?gift_card=${err.code}#gift-card`);
    }
    return seeOther(reply, `/shop/orders/${order.token}?gift_card=ok#gift-card`);
  });
};
