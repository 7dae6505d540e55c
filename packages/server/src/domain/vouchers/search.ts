// Finding a gift card from what staff have at hand: the last characters of its code (printed on
// the card, 1 to 4 of them), the card's number, or part of the recipient's name. One box, so the
// term is tried as each that it can be; the full code is never needed (nor shown).
import { ordersOfLedger, searchGiftCards, type GiftCardRow } from '../../db/repositories/giftCards.ts';
import type { Ctx } from '../context.ts';
import { requireStaff } from './giftCards.ts';

export async function findGiftCards(ctx: Ctx, term: string, limit = 50): Promise<GiftCardRow[]> {
  requireStaff(ctx, 'read');
  const t = term.trim().replace(/^#/, '').slice(0, 100);
  if (!t) return [];
  const upper = t.toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  const suffix = /^[0-9A-HJKMNP-TV-Z]{1,4}$/.test(upper) ? upper : undefined;
  const id = /^\d{1,9}$/.test(t) ? Number(t) : undefined;
  const name = t.length >= 2 ? t : undefined;
  return searchGiftCards(ctx.db, { ...(suffix ? { suffix } : {}), ...(id !== undefined ? { id } : {}), ...(name ? { name } : {}), limit });
}

/** The order behind each redemption or refund on a card's ledger (ledger id → order id). */
export async function giftCardOrders(ctx: Ctx, giftCardId: number): Promise<Map<number, number>> {
  requireStaff(ctx, 'read');
  return new Map((await ordersOfLedger(ctx.db, giftCardId)).map((r) => [r.ledger_id, r.order_id]));
}
