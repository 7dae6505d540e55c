// A card past its end keeps no value: the daily job (src/jobs/cron.ts) writes an `expired` entry
// taking what is left off each such card, so the ledger explains every cent and the liability
// report drops it. Each card moves in its own short transaction, locked, so a refund landing on
// the card at the same moment is taken off too (the entry takes the balance as locked).
import { expiredWithBalance, giftCardById, insertLedger, moveBalance } from '../../db/repositories/giftCards.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { auditCard } from './giftCards.ts';

export async function expireGiftCards(ctx: Ctx, batch = 200): Promise<number> {
  const now = ctx.clock.now();
  let done = 0;
  for (;;) {
    const cards = await expiredWithBalance(ctx.db, now, batch);
    for (const c of cards) {
      await transaction(ctx.db, async (tx) => {
        const locked = (await giftCardById(tx, c.id, true))!;
        if (locked.balanceCents <= 0 || locked.expiresAt > now) return;
        const card = (await moveBalance(tx, c.id, -locked.balanceCents, now, true))!;
        await insertLedger(tx, { giftCardId: c.id, kind: 'expired', amountCents: -locked.balanceCents, balanceAfterCents: card.balanceCents, actor: 'system', createdAt: now });
        await auditCard(tx, ctx, 'system', 'gift_card.expired', c.id, { balance_cents: locked.balanceCents }, { balance_cents: 0 });
        done++;
      });
    }
    if (cards.length < batch) return done;
  }
}
