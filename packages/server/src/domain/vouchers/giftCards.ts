// Gift cards (multi-purpose vouchers, docs/vouchers.md): issue, read, list, correct. A card is
// issued by a verb that the desk, the shop and the API call once its price was taken: the sale of
// a card carries no VAT (the items it later pays for do), so it is not an order item with a tax
// rate. The code is shown once, in the answer to the issue, and never again: the database keeps
// its SHA-256 and its last four characters, and no log line carries it.
import type { Tx } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import {
  giftCardById, insertGiftCard, insertLedger, ledgerOf, listGiftCards as listRows, moveBalance, type GiftCardRow, type LedgerRow,
} from '../../db/repositories/giftCards.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import type { Ctx } from '../context.ts';
import { DomainError, forbidden, invalid, notFound } from '../errors.ts';
import { callerOf } from '../payments/internal.ts';
import { hasRight } from '../principal.ts';
import { addDays, isValidDate, localDateOf, zonedInstant } from '../time.ts';
import { sealSecret, sealingKey } from '../webhooks/secrets.ts';
import { codeHash, last4, newCode } from './code.ts';

/** A free amount is taken within these limits; the shop offers the fixed values. */
export const GIFT_CARD_LIMITS = { minCents: 500, maxCents: 50_000, values: [2_500, 5_000, 10_000] } as const;

export interface IssueInput {
  amount_cents: number;
  language?: string;
  recipient?: string;
  /** Staff may set another end; by default the end of the third year after the year of sale. */
  expires_on?: string;
}

export function requireStaff(ctx: Ctx, mode: 'read' | 'write'): void {
  if (!hasRight(ctx.principal, 'orders', mode)) throw forbidden();
}

/** The end of the third year after the year of `at`, in the museum's zone (first instant of year + 4). */
export function defaultExpiry(at: Date, zone: string): Date {
  const year = Number(localDateOf(at, zone).slice(0, 4));
  return zonedInstant(`${year + 4}-01-01`, 0, zone);
}

/** Why an amount cannot be a card's value, or null (the limits of every channel). */
export function giftCardAmountProblem(cents: number): string | null {
  const { minCents, maxCents } = GIFT_CARD_LIMITS;
  return !Number.isSafeInteger(cents) || cents < minCents || cents > maxCents ? `amount_cents must be between ${minCents} and ${maxCents}` : null;
}

export interface CardToWrite {
  amountCents: number;
  language: string;
  recipient: string | null;
  expiresAt: Date;
  /** The order line that sold it: its sealed code is kept for the buyer's PDF (docs/vouchers.md). */
  orderItemId?: number;
}

/**
 * The one way a card comes to be, in the caller's transaction: the card with its code sealed, the
 * ledger's `issued` entry and the audit entry. The staff verb below and an order's finalization
 * (orderLines.ts) both call it, so ledger, audit and expiry are one rule.
 */
export async function writeGiftCard(tx: Tx, ctx: Ctx, actor: string, x: CardToWrite): Promise<{ card: GiftCardRow; code: string; ledger: LedgerRow[] }> {
  const now = ctx.clock.now();
  const code = newCode();
  const card = await insertGiftCard(tx, {
    codeHash: codeHash(code), codeLast4: last4(code), codeSealed: sealSecret(code, sealingKey(ctx.config)), currency: ctx.config.currency, initialCents: x.amountCents,
    balanceCents: x.amountCents, language: x.language, recipient: x.recipient, expiresAt: x.expiresAt, issuedBy: actor, issuedAt: now, updatedAt: now,
    orderItemId: x.orderItemId ?? null,
  });
  const l = await insertLedger(tx, {
    giftCardId: card.id, kind: 'issued', amountCents: card.initialCents, balanceAfterCents: card.balanceCents, actor, createdAt: now,
  });
  await auditCard(tx, ctx, actor, 'gift_card.issued', card.id, null, {
    amount_cents: card.initialCents, last4: card.codeLast4, ...(x.orderItemId ? { order_item_id: x.orderItemId } : {}),
  });
  return { card, code, ledger: [l] };
}

export async function issueGiftCard(ctx: Ctx, input: IssueInput): Promise<{ card: GiftCardRow; code: string; ledger: LedgerRow[] }> {
  requireStaff(ctx, 'write');
  const bad = giftCardAmountProblem(input.amount_cents);
  if (bad) throw invalid(bad);
  const language = input.language ?? ctx.config.locales[0] ?? 'de';
  if (!ctx.config.locales.includes(language)) throw invalid(`language must be one of ${ctx.config.locales.join(', ')}`);
  const now = ctx.clock.now();
  let expiresAt = defaultExpiry(now, ctx.config.zone);
  if (input.expires_on !== undefined) {
    if (!isValidDate(input.expires_on)) throw invalid('expires_on must be a date YYYY-MM-DD');
    expiresAt = zonedInstant(addDays(input.expires_on, 1), 0, ctx.config.zone);
    if (expiresAt <= now) throw invalid('expires_on must be in the future');
  }
  const actor = callerOf(ctx);
  return transaction(ctx.db, (tx) => writeGiftCard(tx, ctx, actor, { amountCents: input.amount_cents, language, recipient: input.recipient ?? null, expiresAt }));
}

export async function auditCard(tx: Tx, ctx: Ctx, actor: string, action: string, id: number, before: Record<string, unknown> | null, after: Record<string, unknown>) {
  await recordAudit({ db: tx, clock: ctx.clock }, { system: actor }, { action, entityType: 'gift_card', entityId: id, before, after });
}

export async function getGiftCard(ctx: Ctx, id: number): Promise<{ card: GiftCardRow; ledger: LedgerRow[] }> {
  requireStaff(ctx, 'read');
  const card = await giftCardById(ctx.db, id);
  if (!card) throw notFound('gift card');
  return { card, ledger: await ledgerOf(ctx.db, id) };
}

export async function listGiftCards(ctx: Ctx, q: { last4?: string; limit?: number; offset?: number }): Promise<GiftCardRow[]> {
  requireStaff(ctx, 'read');
  const l4 = q.last4?.toUpperCase();
  return listRows(ctx.db, { ...(l4 ? { last4: l4 } : {}), limit: q.limit ?? 50, offset: q.offset ?? 0 });
}

/** Staff correct a balance by a signed amount, always with a reason; never below zero. */
export async function correctGiftCard(ctx: Ctx, id: number, input: { amount_cents: number; reason: string }): Promise<{ card: GiftCardRow; entry: LedgerRow }> {
  requireStaff(ctx, 'write');
  if (!Number.isSafeInteger(input.amount_cents) || input.amount_cents === 0) throw invalid('amount_cents must be a non-zero integer');
  const reason = input.reason.trim();
  if (!reason) throw invalid('reason is required');
  const actor = callerOf(ctx);
  return transaction(ctx.db, async (tx) => {
    const before = await giftCardById(tx, id, true);
    if (!before) throw notFound('gift card');
    const now = ctx.clock.now();
    const card = await moveBalance(tx, id, input.amount_cents, now, true);
    if (!card) throw new DomainError('CODE_EXHAUSTED', `the balance is ${before.balanceCents} cents; a correction cannot take it below zero`);
    const entry = await insertLedger(tx, {
      giftCardId: id, kind: 'corrected', amountCents: input.amount_cents, balanceAfterCents: card.balanceCents, reason, actor, createdAt: now,
    });
    await auditCard(tx, ctx, actor, 'gift_card.corrected', id, { balance_cents: before.balanceCents }, { balance_cents: card.balanceCents, reason });
    return { card, entry };
  });
}
