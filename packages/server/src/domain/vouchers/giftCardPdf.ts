// What the gift card's PDF shows (documents/render/giftCard.ts draws it), once. A code is a secret
// shown to the buyer and nobody after: the card keeps a sealed copy only until its PDF is made, and
// making it clears the copy (takeSealedCode), so the PDF is the code's second and last appearance,
// like the answer that issued it. A lost PDF is replaced by a new card (a correction moves the
// value); cards issued before the copy was kept have no PDF. Cards sold as order lines are the
// exception: their buyer holds the order token, and may download the card again (docs/vouchers.md).
import { giftCardById, takeSealedCode } from '../../db/repositories/giftCards.ts';
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
  /** A single-purpose voucher's PDF: its ticket's title (one admission); absent for a gift card. */
  admission?: string;
}

export async function giftCardPdfData(ctx: Ctx, id: number): Promise<GiftCardPdfData> {
  requireStaff(ctx, 'write');
  const card = await giftCardById(ctx.db, id);
  if (!card) throw notFound('gift card');
  // A card bought in an order keeps its copy: its buyer downloads the PDF again through the order
  // token (orderCodePdf.ts), so printing it here must not take that away.
  const sealed = card.orderItemId !== null ? card.codeSealed : await takeSealedCode(ctx.db, id);
  if (!sealed) throw new DomainError('CODE_NOT_APPLICABLE', "this gift card's PDF was made before (its code is shown once) or the card predates PDFs; issue a new card");
  return {
    locale: card.language,
    museum: ctx.config.invoice.issuer.name ?? 'Museum',
    code: openSecret(sealed, sealingKey(ctx.config)),
    value_cents: card.initialCents,
    currency: card.currency,
    recipient: card.recipient,
    expires_at: new Date(card.expiresAt.getTime() - 1),
    time_zone: ctx.config.zone,
    last4: card.codeLast4,
  };
}
