// Gift cards in the console: find a card by the last characters of its code, its number or the
// recipient's name; its page with balance, end and ledger; a manager's correction with a reason,
// confirmed on a second page before it is booked. The full code is never shown here: the
// database does not have it (only its hash and last four characters).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors.ts';
import { roleMay } from '../../../domain/staff/permissions.ts';
import { correctGiftCard, getGiftCard } from '../../../domain/vouchers/giftCards.ts';
import { findGiftCards, giftCardOrders } from '../../../domain/vouchers/search.ts';
import { translator } from '../i18n.ts';
import type { ConsoleDeps } from './deps.ts';
import { domainMessage } from './errors.ts';
import { consoleRoute, field, intParam } from './kit.ts';
import { renderPage, seeOther } from './render.ts';
import { parseSignedMoney } from './voucherForms.ts';

interface Correction { amount: string; reason: string }

async function showCard(req: FastifyRequest, reply: FastifyReply, id: number, form: Correction, errors: string[] = [], status = 200) {
  const r = await getGiftCard(req.staffCtx, id);
  const orders = await giftCardOrders(req.staffCtx, id);
  const t = translator(req.consoleLocale);
  return renderPage(req, reply, 'giftcards/show', {
    title: t('giftcards.card', { last4: r.card.codeLast4 }), card: r.card, ledger: r.ledger, orders, form, errors,
    expired: r.card.expiresAt <= req.staffCtx.clock.now(), mayCorrect: roleMay(req.staffCtx.staff.role, 'giftcards.correct'),
  }, status);
}

export const giftCardPages = (_deps: ConsoleDeps): FastifyPluginAsync => async (app) => {
  consoleRoute(app, { method: 'GET', url: '/gift-cards', action: 'giftcards.view' }, async (req, reply) => {
    const q = field(req.query, 'q', 100);
    const hits = q ? await findGiftCards(req.staffCtx, q) : null;
    const role = req.staffCtx.staff.role;
    return renderPage(req, reply, 'giftcards/index', {
      title: translator(req.consoleLocale)('giftcards.title'), q, hits, now: req.staffCtx.clock.now(),
      maySell: roleMay(role, 'sale.create'), mayReports: roleMay(role, 'giftcards.reports'),
    });
  });

  consoleRoute(app, { method: 'GET', url: '/gift-cards/:id', action: 'giftcards.view' }, async (req, reply) => {
    const id = intParam((req.params as { id: string }).id);
    if (id === null) throw new DomainError('NOT_FOUND', 'gift card not found');
    return showCard(req, reply, id, { amount: '', reason: '' });
  });

  consoleRoute(app, { method: 'POST', url: '/gift-cards/:id/correct', action: 'giftcards.correct' }, async (req, reply) => {
    const id = intParam((req.params as { id: string }).id);
    if (id === null) throw new DomainError('NOT_FOUND', 'gift card not found');
    const t = translator(req.consoleLocale);
    const form = { amount: field(req.body, 'amount', 12), reason: field(req.body, 'reason', 500) };
    const cents = parseSignedMoney(form.amount);
    const errors: string[] = [];
    if (cents === null || cents === 0) errors.push(t('giftcards.error.amount'));
    if (!form.reason) errors.push(t('giftcards.error.reason'));
    if (errors.length) return showCard(req, reply, id, form, errors, 422);
    if (field(req.body, 'confirm', 1) !== '1') {
      const { card } = await getGiftCard(req.staffCtx, id);
      return renderPage(req, reply, 'giftcards/confirm', { title: t('giftcards.correct.confirm.title', { last4: card.codeLast4 }), card, form, cents });
    }
    try {
      await correctGiftCard(req.staffCtx, id, { amount_cents: cents!, reason: form.reason });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'NOT_FOUND') throw err;
      if (err.code === 'CODE_EXHAUSTED') return showCard(req, reply, id, form, [t('giftcards.error.belowzero')], 422);
      const m = domainMessage(req, err);
      return showCard(req, reply, id, form, [m.message, ...m.details], 422);
    }
    return seeOther(reply, `/console/gift-cards/${id}`, 'giftcardcorrected');
  });
};
