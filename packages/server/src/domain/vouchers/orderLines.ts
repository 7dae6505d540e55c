// Gift cards and single-purpose vouchers as order lines (docs/vouchers.md, ADR 0043): how a line
// is priced, which lines may share an order, the codes issued when the order is finalized (the
// moment its tickets become valid: never for a pending, unpaid order) and what cancelling does
// to them. Issuing goes through the issue verbs' writers (giftCards.ts, singlePurpose.ts), so the
// ledger, the audit and the default end are the same rule for staff, desk and order sales.
import type { DbOrTx, Tx } from '../../db/client.ts';
import { cardsOfItems, cardWasUsed, codeLinesOfOrder, voidCardRowUnguarded, firstMuseum, giveBackPromoUses, unredeemVouchers, vouchersOfItems, voidCardRow, voidVoucherRow } from '../../db/repositories/orderCodeLines.ts';
import { insertLedger } from '../../db/repositories/giftCards.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { ticketById } from '../capacity/catalog.ts';
import { isBookableBy } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { OrderItemInput, PreparedItem } from '../orders/items.ts';
import { callerOf } from '../payments/internal.ts';
import { ticketPrice } from '../pricing/prices.ts';
import { auditCard, defaultExpiry, giftCardAmountProblem, writeGiftCard } from './giftCards.ts';
import { writeVoucher } from './singlePurpose.ts';

export type CodeLineType = 'GiftCard' | 'Voucher';
export const isCodeLine = (type: string): type is CodeLineType => type === 'GiftCard' || type === 'Voucher';

/** Cards or vouchers one line may hold: a line is one purchase, not a stock. */
export const MAX_CODES_PER_LINE = 20;

type CodeInput = Extract<OrderItemInput, { type: CodeLineType }>;

function checkLanguage(ctx: Ctx, language: string | undefined, at: string, errors: string[]): string {
  const lang = language ?? ctx.config.locales[0] ?? 'de';
  if (!ctx.config.locales.includes(lang)) errors.push(`${at} language must be one of ${ctx.config.locales.join(', ')}`);
  return lang;
}

/**
 * Prices a GiftCard or Voucher line. A card is its amount, without VAT (a multi-purpose voucher:
 * VAT falls due when it pays for something). A voucher is one admission of its ticket at what
 * this caller pays for one, by the one price calculation, with the ticket's VAT rate: the VAT of
 * a single-purpose voucher is due at its sale. Neither claims capacity: the visit is booked when
 * the code is redeemed.
 */
export async function prepareCodeLine(db: DbOrTx, ctx: Ctx, item: CodeInput, at: string, errors: string[]): Promise<PreparedItem | null> {
  const a = item.attributes;
  const quantity = a.quantity ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_CODES_PER_LINE) errors.push(`${at} quantity must be between 1 and ${MAX_CODES_PER_LINE}`);
  const language = checkLanguage(ctx, a.language, at, errors);
  const recipient = a.recipient?.trim() || null;
  const now = ctx.clock.now();
  const base = { eventId: null, ticketId: null, eventDateId: null, tourId: null, languageId: null, startAt: now, attendees: null, reservationTokens: [], claim: null };
  if (item.type === 'GiftCard') {
    const bad = giftCardAmountProblem(item.attributes.amount_cents);
    if (bad) errors.push(`${at} ${bad}`);
    const museum = await firstMuseum(db);
    if (!museum) { errors.push(`${at}: no museum to sell gift cards for`); return null; }
    if (bad) return null;
    const unit = item.attributes.amount_cents;
    return {
      ...base, type: 'GiftCard', museumId: museum.id, zone: museum.zone, quantity, unitPriceCents: unit, priceCents: unit * quantity,
      vatPct: 0, taxIncluded: true, voucherTicketId: null, codeLanguage: language, codeRecipient: recipient,
    };
  }
  const t = await ticketById(ctx, db, item.attributes.ticket_id);
  if (!t) { errors.push(`${at}: ticket ${item.attributes.ticket_id} not found`); return null; }
  if (!isBookableBy(ctx.principal, t)) throw new DomainError('NOT_BOOKABLE', 'ticket not bookable in the current auth context');
  const unit = ticketPrice(ctx.principal, t, 1);
  return {
    ...base, type: 'Voucher', museumId: t.museumId, zone: t.zone, quantity, unitPriceCents: unit, priceCents: unit * quantity,
    vatPct: t.vatPct, taxIncluded: t.taxIncluded, voucherTicketId: t.id, codeLanguage: language, codeRecipient: recipient,
  };
}

/**
 * The mixing rule (ADR 0043): gift cards are sold in an order of their own. Their lines are "not
 * subject to VAT" (category O), and EN 16931 allows no other category beside O on one invoice.
 */
export function checkLineMix(items: Array<{ type: string }>, codes: number): void {
  const cards = items.filter((i) => i.type === 'GiftCard').length;
  if (cards === 0) return;
  if (cards < items.length) {
    throw new DomainError('GIFT_CARD_MIXED', 'gift cards are sold in an order of their own: order the other items separately');
  }
  if (codes > 0) throw new DomainError('GIFT_CARD_MIXED', 'an order of gift cards takes no promo codes or vouchers');
}

/**
 * Issues the codes of the order's GiftCard and Voucher lines, in the finalizing transaction. A line
 * that already has its codes is left alone, so a repeated call issues nothing twice.
 */
export async function issueOrderCodes(tx: Tx, ctx: Ctx, orderId: number): Promise<void> {
  const lines = await codeLinesOfOrder(tx, orderId);
  if (lines.length === 0) return;
  const ids = lines.map((i) => i.id);
  const [cards, vouchers] = [await cardsOfItems(tx, ids), await vouchersOfItems(tx, ids)];
  const actor = callerOf(ctx);
  const expiresAt = defaultExpiry(ctx.clock.now(), ctx.config.zone);
  for (const i of lines) {
    const language = i.codeLanguage ?? ctx.config.locales[0] ?? 'de';
    if (i.type === 'GiftCard') {
      for (let n = cards.filter((c) => c.orderItemId === i.id).length; n < i.quantity; n++) {
        await writeGiftCard(tx, ctx, actor, { amountCents: i.unitPriceCents, language, recipient: i.codeRecipient, expiresAt, orderItemId: i.id });
      }
    } else {
      for (let n = vouchers.filter((v) => v.orderItemId === i.id).length; n < i.quantity; n++) {
        await writeVoucher(tx, ctx, actor, {
          ticketId: i.voucherTicketId!, priceCents: i.unitPriceCents, vatPct: i.vatPct, language, recipient: i.codeRecipient, expiresAt, orderItemId: i.id,
        });
      }
    }
  }
}

const redeemed = (what: string) =>
  new DomainError('CODE_REDEEMED', `${what} sold with this order has been redeemed (in part or in full): the order cannot be cancelled`);

/**
 * Cancelling GiftCard and Voucher lines, in the cancellation's transaction: every card still
 * untouched is voided (its balance goes to zero, the ledger says `voided`), every voucher not yet
 * redeemed is voided. One that was used refuses the whole cancellation (422 CODE_REDEEMED), and
 * the rollback leaves everything as it was. Cards and vouchers are locked first, so a payment
 * with a card waits for this and then finds no balance.
 */
export async function voidOrderCodes(tx: Tx, ctx: Ctx, cancelledItemIds: number[]): Promise<void> {
  const ids = cancelledItemIds;
  if (ids.length === 0) return;
  const now = ctx.clock.now();
  const actor = callerOf(ctx);
  // The control run of the race test reads without the lock and writes without the guard.
  const loose = ctx.testing?.unguardedGiftCardVoid === true;
  for (const c of await cardsOfItems(tx, ids, !loose)) {
    if (c.voidedAt) continue;
    if (c.balanceCents !== c.initialCents || (!loose && (await cardWasUsed(tx, c.id)))) throw redeemed(`gift card …${c.codeLast4}`);
    const v = loose ? await voidUnguarded(tx, c.id, now) : await voidCardRow(tx, c.id, now);
    if (!v) throw redeemed(`gift card …${c.codeLast4}`);
    await insertLedger(tx, { giftCardId: c.id, kind: 'voided', amountCents: -c.balanceCents, balanceAfterCents: 0, actor, reason: 'order cancelled', createdAt: now });
    await auditCard(tx, ctx, actor, 'gift_card.voided', c.id, { balance_cents: c.balanceCents }, { balance_cents: 0, order_item_id: c.orderItemId });
  }
  for (const v of await vouchersOfItems(tx, ids, true)) {
    if (v.voidedAt) continue;
    if (v.orderId !== null || !(await voidVoucherRow(tx, v.id, now))) throw redeemed(`voucher …${v.codeLast4}`);
    await recordAudit({ db: tx, clock: ctx.clock }, { system: actor }, {
      action: 'voucher.voided', entityType: 'voucher', entityId: v.id, before: null, after: { order_item_id: v.orderItemId },
    });
  }
}

/** The race's control run: a pause between the read and the write, then no guard (a lost update). */
async function voidUnguarded(tx: Tx, id: number, now: Date) {
  await new Promise((r) => setTimeout(r, 50));
  return voidCardRowUnguarded(tx, id, now);
}

/**
 * What a cancellation gives back of the codes the order took: the vouchers redeemed on the
 * cancelled items become valid again, and once the whole order is cancelled its promo-code uses
 * are given back (a promo code applies to the order, so a part cancelled keeps it).
 */
export async function giveBackOrderCodes(tx: Tx, ctx: Ctx, orderId: number, cancelledItemIds: number[], wholeOrder: boolean): Promise<void> {
  const actor = callerOf(ctx);
  for (const id of await unredeemVouchers(tx, orderId, cancelledItemIds)) {
    await recordAudit({ db: tx, clock: ctx.clock }, { system: actor }, {
      action: 'voucher.unredeemed', entityType: 'voucher', entityId: id, before: { order_id: orderId }, after: { order_id: null },
    });
  }
  if (!wholeOrder) return;
  for (const id of await giveBackPromoUses(tx, orderId)) {
    await recordAudit({ db: tx, clock: ctx.clock }, { system: actor }, {
      action: 'promo_code.use_returned', entityType: 'promo_code', entityId: id, before: null, after: { order_id: orderId },
    });
  }
}
