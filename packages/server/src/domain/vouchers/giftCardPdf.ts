// What the gift card's PDF shows (documents/render/giftCard.ts draws it): staff who may issue cards
// may print one again. The code is opened from its sealed copy for this rendering only; cards
// issued before the copy was kept cannot be printed again (their code exists nowhere).
import { giftCardById } from '../../db/repositories/giftCards.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { openSecret, sealingKey } from '../webhooks/secrets.ts';
import { requireStaff } from './giftCards.ts';

export interface GiftCardPdfData {
  locale: string;
  museum: string;
  code: string;
  value_cents: number;
  currency: string;
  recipient: string | null;
  /** The last instant of validity (the card ends at the first instant after it). */
  expires_at: Date;
  time_zone: string;
  last4: string;
}

export async function giftCardPdfData(ctx: Ctx, id: number): Promise<GiftCardPdfData> {
  requireStaff(ctx, 'write');
  const card = await giftCardById(ctx.db, id);
  if (!card) throw notFound('gift card');
  if (!card.codeSealed) throw new DomainError('CODE_NOT_APPLICABLE', 'this gift card was issued before its code was kept for printing; issue a new card');
  return {
    locale: card.language,
    museum: ctx.config.invoice.issuer.name ?? 'Museum',
    code: openSecret(card.codeSealed, sealingKey(ctx.config)),
    value_cents: card.initialCents,
    currency: card.currency,
    recipient: card.recipient,
    expires_at: new Date(card.expiresAt.getTime() - 1),
    time_zone: ctx.config.zone,
    last4: card.codeLast4,
  };
}
