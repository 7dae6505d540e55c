// Paying with a gift card on the summary page: the card pays what is due or its whole balance
// when that is less (vouchers/redeem.ts, the same verb as the API), and the chosen provider's
// page then takes only the rest; a card that covers everything finalizes the order at once.
// Tries count against the address's gift-card budget (ops/limiter.ts), shared with the API's
// balance look-up. The typed code is never shown back, logged or put in an address: a refusal
// comes back as the summary with a message.
import type { FastifyPluginAsync } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { payWithGiftCard } from '../../../domain/vouchers/redeem.ts';
import { GIFT_CARD_TRIES, type Limiter } from '../../../ops/limiter.ts';
import { field } from '../kit.ts';
import { seeOther } from '../render.ts';
import { orderOf } from '../orderRef.ts';

/** Refusals the summary explains (messages `gc.<CODE>`); anything else is an error page. */
export const GIFT_CARD_REFUSALS = ['CODE_INVALID', 'CODE_EXHAUSTED', 'CODE_EXPIRED', 'CODE_NOT_APPLICABLE', 'PAYMENT_NOT_DUE'] as const;

export const giftCardRoutes = (limiter: Limiter): FastifyPluginAsync => async (app) => {
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
