// The PDFs of the gift cards and vouchers an order sold, for its buyer: the order token opens
// them (as it opens the order's ticket links), as often as asked, because a card sold in an order
// keeps its sealed code (docs/vouchers.md). The staff PDF of a card issued by staff stays
// single-use (giftCardPdf.ts). A wrong token, a card of another order and an unknown card are one
// and the same 404; a card or voucher cancelled with its order is gone (410).
import { timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { orderToken } from '../../db/repositories/documents/documents.ts';
import { cardsOfItems, codeLinesOfOrder, sealedCodeOf, vouchersOfItems } from '../../db/repositories/orderCodeLines.ts';
import { ticketById } from '../capacity/catalog.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { openSecret, sealingKey } from '../webhooks/secrets.ts';
import type { GiftCardPdfData } from './giftCardPdf.ts';

export type SoldKind = 'gift_card' | 'voucher';

export interface SoldCodePdf {
  kind: SoldKind;
  id: number;
  filename: string;
  data: GiftCardPdfData;
}

type PdfCtx = Pick<Ctx, 'db' | 'config' | 'masterData'>;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const filenameOf = (kind: SoldKind, last4: string) => `${kind === 'gift_card' ? 'gift-card' : 'voucher'}-${last4}.pdf`;

/** Every valid card and voucher the order sold, ready to draw (the confirmation mail attaches them). */
export async function soldCodePdfsOfOrder(ctx: PdfCtx, db: DbOrTx, orderId: number): Promise<SoldCodePdf[]> {
  const ids = (await codeLinesOfOrder(db, orderId)).map((i) => i.id);
  const out: SoldCodePdf[] = [];
  for (const c of await cardsOfItems(db, ids)) {
    if (c.voidedAt || !c.codeSealed) continue;
    out.push({ kind: 'gift_card', id: c.id, filename: filenameOf('gift_card', c.codeLast4), data: pdfData(ctx, c, c.codeSealed, c.initialCents) });
  }
  for (const v of await vouchersOfItems(db, ids)) {
    if (v.voidedAt || !v.codeSealed) continue;
    const admission = await ticketTitle(ctx, db, v.ticketId, v.language);
    out.push({ kind: 'voucher', id: v.id, filename: filenameOf('voucher', v.codeLast4), data: { ...pdfData(ctx, v, v.codeSealed, v.priceCents), admission } });
  }
  return out;
}

/** One sold card's or voucher's PDF data, for the holder of its order's token. */
export async function soldCodePdf(ctx: PdfCtx, input: { orderId: number; token: string; kind: SoldKind; id: number }): Promise<SoldCodePdf> {
  const order = await orderToken(ctx.db, input.orderId);
  if (!order || !sameSecret(order.token, input.token)) throw notFound('document');
  // Cancelled lines too: their cards are void, and say so (410) rather than vanish.
  const ids = (await codeLinesOfOrder(ctx.db, order.id, false)).map((i) => i.id);
  const what = input.kind === 'gift_card' ? 'gift card' : 'voucher';
  const row = input.kind === 'gift_card'
    ? (await cardsOfItems(ctx.db, ids)).find((c) => c.id === input.id)
    : (await vouchersOfItems(ctx.db, ids)).find((v) => v.id === input.id);
  if (!row) throw notFound('document');
  if (row.voidedAt) throw new DomainError('GONE', `this ${what} was cancelled with its order`);
  const sealed = await sealedCodeOf(ctx.db, input.kind, row.id);
  if (!sealed) throw notFound('document');
  const value = 'initialCents' in row ? row.initialCents : row.priceCents;
  const data = pdfData(ctx, row, sealed, value);
  if ('ticketId' in row) data.admission = await ticketTitle(ctx, ctx.db, row.ticketId, row.language);
  return { kind: input.kind, id: row.id, filename: filenameOf(input.kind, row.codeLast4), data };
}

function pdfData(
  ctx: PdfCtx,
  r: { language: string; currency: string; recipient: string | null; expiresAt: Date; codeLast4: string },
  sealed: string,
  valueCents: number,
): GiftCardPdfData {
  return {
    locale: r.language,
    museum: ctx.config.invoice.issuer.name ?? 'Museum',
    code: openSecret(sealed, sealingKey(ctx.config)),
    value_cents: valueCents,
    currency: r.currency,
    recipient: r.recipient,
    expires_at: new Date(r.expiresAt.getTime() - 1),
    time_zone: ctx.config.zone,
    last4: r.codeLast4,
  };
}

async function ticketTitle(ctx: PdfCtx, db: DbOrTx, ticketId: number, language: string): Promise<string> {
  const t = await ticketById(ctx, db, ticketId);
  const title = t?.title as Record<string, string> | undefined;
  return title?.[language] ?? Object.values(title ?? {})[0] ?? '';
}
