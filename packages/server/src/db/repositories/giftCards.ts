// Every statement on gift cards and their ledger (migration 0041). A balance changes only through
// `moveBalance`: one conditional update that refuses (returns nothing) when the card has expired
// or would go below zero, so concurrent redemptions on any number of processes never overspend;
// the ledger row is written in the same transaction by the caller.
import { and, asc, desc, eq, gt, gte, ilike, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { giftCardLedger, giftCards } from '../schema/index.ts';

export type GiftCardRow = typeof giftCards.$inferSelect;
export type LedgerRow = typeof giftCardLedger.$inferSelect;
export type NewLedger = typeof giftCardLedger.$inferInsert;

export async function insertGiftCard(db: DbOrTx, row: typeof giftCards.$inferInsert): Promise<GiftCardRow> {
  const [c] = await db.insert(giftCards).values(row).returning();
  return c!;
}

export async function giftCardById(db: DbOrTx, id: number, forUpdate = false): Promise<GiftCardRow | undefined> {
  const q = db.select().from(giftCards).where(eq(giftCards.id, id));
  const [c] = forUpdate ? await q.for('update') : await q;
  return c;
}

/**
 * Takes the card's sealed code for its one PDF: one conditional update clears it and answers the
 * old value, so of two requests at once only one gets it; none when it was taken before.
 */
export async function takeSealedCode(db: DbOrTx, id: number): Promise<string | null> {
  const rows = await db.execute<{ sealed: string | null }>(sql`
    update gift_cards g set code_sealed = null
    from (select id, code_sealed from gift_cards where id = ${id} and code_sealed is not null for update) old
    where g.id = old.id
    returning old.code_sealed as sealed`);
  return rows.rows[0]?.sealed ?? null;
}

export async function giftCardByHash(db: DbOrTx, hash: string): Promise<GiftCardRow | undefined> {
  const [c] = await db.select().from(giftCards).where(eq(giftCards.codeHash, hash));
  return c;
}

/**
 * Adds `delta` (negative: a debit) to the balance, only while the card is valid at `now` (unless
 * `evenExpired`) and the balance stays at or above zero. Undefined when refused.
 */
export async function moveBalance(db: DbOrTx, id: number, delta: number, now: Date, evenExpired = false): Promise<GiftCardRow | undefined> {
  const conds = [eq(giftCards.id, id), gte(giftCards.balanceCents, -delta)];
  if (!evenExpired) conds.push(gt(giftCards.expiresAt, now));
  const [c] = await db
    .update(giftCards)
    .set({ balanceCents: sql`${giftCards.balanceCents} + ${delta}`, updatedAt: now })
    .where(and(...conds))
    .returning();
  return c;
}

/** Test-only (the race's control run): writes a balance computed by the caller, unguarded. */
export async function setBalanceUnguarded(db: DbOrTx, id: number, balance: number, now: Date): Promise<GiftCardRow | undefined> {
  const [c] = await db.update(giftCards).set({ balanceCents: balance, updatedAt: now }).where(eq(giftCards.id, id)).returning();
  return c;
}

export async function insertLedger(db: DbOrTx, row: NewLedger): Promise<LedgerRow> {
  const [l] = await db.insert(giftCardLedger).values(row).returning();
  return l!;
}

export async function ledgerOf(db: DbOrTx, giftCardId: number): Promise<LedgerRow[]> {
  return db.select().from(giftCardLedger).where(eq(giftCardLedger.giftCardId, giftCardId)).orderBy(asc(giftCardLedger.id));
}

/** The redemption that made a payment (the card a refund of it goes back to). */
export async function redemptionOfPayment(db: DbOrTx, paymentId: number): Promise<LedgerRow | undefined> {
  const [l] = await db
    .select()
    .from(giftCardLedger)
    .where(and(eq(giftCardLedger.paymentId, paymentId), eq(giftCardLedger.kind, 'redeemed')));
  return l;
}

export async function ledgerOfRefund(db: DbOrTx, refundId: number): Promise<LedgerRow | undefined> {
  const [l] = await db.select().from(giftCardLedger).where(eq(giftCardLedger.refundId, refundId));
  return l;
}

/** Newest first; `last4` narrows to cards whose code ends so (what staff read off a card). */
export async function listGiftCards(db: DbOrTx, opts: { last4?: string; limit: number; offset: number }): Promise<GiftCardRow[]> {
  const q = db.select().from(giftCards);
  const filtered = opts.last4 ? q.where(eq(giftCards.codeLast4, opts.last4)) : q;
  return filtered.orderBy(desc(giftCards.id)).limit(opts.limit).offset(opts.offset);
}

/** Newest first: cards whose code ends with `suffix`, whose id is `id` or whose recipient contains `name`. */
export async function searchGiftCards(db: DbOrTx, q: { suffix?: string; id?: number; name?: string; limit: number }): Promise<GiftCardRow[]> {
  const conds = [];
  if (q.suffix) conds.push(sql`${giftCards.codeLast4} like ${`%${q.suffix}`}`);
  if (q.id !== undefined) conds.push(eq(giftCards.id, q.id));
  if (q.name) conds.push(ilike(giftCards.recipient, `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (conds.length === 0) return [];
  return db.select().from(giftCards).where(or(...conds)).orderBy(desc(giftCards.id)).limit(q.limit);
}

/** Per ledger entry of a card, the order its payment or refund belongs to (entries without one left out). */
export async function ordersOfLedger(db: DbOrTx, giftCardId: number): Promise<Array<{ ledger_id: number; order_id: number }>> {
  return (await db.execute<{ ledger_id: number; order_id: number }>(sql`
    select l.id as ledger_id, coalesce(p.order_id, rp.order_id) as order_id
      from gift_card_ledger l
      left join payments p on p.id = l.payment_id
      left join refunds r on r.id = l.refund_id
      left join payments rp on rp.id = r.payment_id
     where l.gift_card_id = ${giftCardId} and coalesce(p.order_id, rp.order_id) is not null`)).rows;
}

/** Cards past their end with value left (the expiry job's work). */
export async function expiredWithBalance(db: DbOrTx, now: Date, limit: number): Promise<GiftCardRow[]> {
  return db
    .select()
    .from(giftCards)
    .where(and(lte(giftCards.expiresAt, now), gt(giftCards.balanceCents, 0)))
    .orderBy(asc(giftCards.id))
    .limit(limit);
}

export interface LiabilityRow {
  currency: string;
  cards: number;
  outstanding_cents: number;
}

/** Outstanding value of valid cards at `now`: a liability until redeemed or expired. */
export async function outstandingValue(db: DbOrTx, now: Date): Promise<LiabilityRow[]> {
  const r = await db.execute<{ currency: string; cards: string; outstanding_cents: string }>(sql`
    select currency, count(*) as cards, coalesce(sum(balance_cents), 0) as outstanding_cents
      from gift_cards where balance_cents > 0 and expires_at > ${now.toISOString()}::timestamptz
     group by currency order by currency`);
  return r.rows.map((x) => ({ currency: x.currency, cards: Number(x.cards), outstanding_cents: Number(x.outstanding_cents) }));
}

export interface LedgerReportRow {
  created_at: Date;
  gift_card_id: number;
  code_last4: string;
  kind: string;
  amount_cents: number;
  balance_after_cents: number;
  payment_id: number | null;
  order_id: number | null;
  actor: string;
  reason: string | null;
}

/** Every ledger movement between two instants, in time order (redemptions report, CSV). */
export async function ledgerBetween(db: DbOrTx, lo: Date, hi: Date): Promise<LedgerReportRow[]> {
  const r = await db.execute<Omit<LedgerReportRow, 'created_at'> & { created_at: string }>(sql`
    select l.created_at, l.gift_card_id, c.code_last4, l.kind, l.amount_cents, l.balance_after_cents, l.payment_id,
           p.order_id, l.actor, l.reason
      from gift_card_ledger l join gift_cards c on c.id = l.gift_card_id left join payments p on p.id = l.payment_id
     where l.created_at >= ${lo.toISOString()}::timestamptz and l.created_at < ${hi.toISOString()}::timestamptz
     order by l.id`);
  return r.rows.map((x) => ({ ...x, created_at: new Date(x.created_at), amount_cents: Number(x.amount_cents), balance_after_cents: Number(x.balance_after_cents) }));
}
