// The box office's basket: lines of tickets (per price category: each ticket is one), event
// dates, tour starts (in a language), gift cards (an amount, a PDF language) and single-purpose
// vouchers (a ticket) with quantities, carried by the sale form itself between steps (no server state, so a
// reload or a second cashier never sees someone else's basket). Every step prices the whole
// basket through the order module's own pricing and claim checks (prepareItems, resolveClaims),
// exactly what the sale will run, so the total shown is the total charged and a line that could
// not be sold (past, closed, above capacity) is refused when it is added, not at the end.
import { resolveClaims } from '../capacity/claimCapacity.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { prepareItems, type OrderItemInput, type PreparedItem } from '../orders/items.ts';
import { lineAmounts } from '../pricing/vat.ts';
import { codeError, voucherLabel } from '../vouchers/applied.ts';
import { codeHash, last4, normalizeCode } from '../vouchers/code.ts';
import { discountItems, type AppliedCode } from '../vouchers/promoApply.ts';
import { normalizePromo } from '../vouchers/promoCodes.ts';

export interface BasketLine {
  kind: 'ticket' | 'event' | 'tour' | 'giftcard' | 'voucher';
  /** Ticket id, event date id, tour id, a gift card's amount in cents or a voucher's ticket id. */
  id: number;
  /** The slot's start (ISO 8601) for tickets, the tour's start for tours. */
  time: string;
  quantity: number;
  /** The language of a tour line. */
  languageId?: number;
  /** The PDF language of a gift card line. */
  language?: string;
}

export interface PricedLine extends BasketLine {
  unitCents: number;
  totalCents: number;
  vatPct: number;
  start: Date;
  zone: string;
}

/** A promo code or voucher the basket takes, as typed, with what it takes off. */
export interface QuotedCode {
  typed: string;
  /** The promo code, or "…K7QZ" for a voucher (its code is a secret). */
  label: string;
  cents: number;
}

export interface Quote {
  /** Each line at its price before codes; `codes` say what they take off. */
  lines: PricedLine[];
  /** What the basket costs, after its codes. */
  totalCents: number;
  codes: QuotedCode[];
  /** VAT per rate, for the receipt. */
  vat: Array<{ vatPct: number; vatCents: number }>;
}

const LINE = /^([TE]):(\d{1,10}):([0-9TZ:.+-]{0,40}):(\d{1,3})$/;
const TOUR = /^U:(\d{1,10}):([0-9TZ:.+-]{1,40}):(\d{1,3}):(\d{1,10})$/;
const CODE = /^([GV]):(\d{1,10}):([a-z]{2}(?:-[A-Z]{2})?)?:(\d{1,3})$/;

/**
 * `T:<ticket>:<slot ISO>:<qty>`, `E:<date id>::<qty>`, `U:<tour>:<start ISO>:<qty>:<language>`,
 * `G:<amount cents>:<PDF language>:<qty>` or `V:<ticket>::<qty>`, as the form carries them.
 */
export function parseLine(text: string): BasketLine | null {
  const c = CODE.exec(text);
  if (c) {
    const quantity = Number(c[4]);
    if (quantity < 1 || quantity > 100) return null;
    if (c[1] === 'V') return { kind: 'voucher', id: Number(c[2]), time: '', quantity };
    return { kind: 'giftcard', id: Number(c[2]), time: '', quantity, ...(c[3] ? { language: c[3] } : {}) };
  }
  const u = TOUR.exec(text);
  const m = u ? null : LINE.exec(text);
  const quantity = Number(u?.[3] ?? m?.[4]);
  if ((!u && !m) || quantity < 1 || quantity > 100) return null;
  if (u) return { kind: 'tour', id: Number(u[1]), time: u[2]!, quantity, languageId: Number(u[4]) };
  return { kind: m![1] === 'T' ? 'ticket' : 'event', id: Number(m![2]), time: m![3]!, quantity };
}

export const lineText = (l: BasketLine) =>
  l.kind === 'giftcard' ? `G:${l.id}:${l.language ?? ''}:${l.quantity}` : l.kind === 'voucher' ? `V:${l.id}::${l.quantity}` :
  `${{ ticket: 'T', event: 'E', tour: 'U' }[l.kind]}:${l.id}:${l.kind === 'event' ? '' : l.time}:${l.quantity}${l.kind === 'tour' ? `:${l.languageId}` : ''}`;

/** Adds a line, merging it into an equal product, start (and tour language) already in the basket. */
export function addLine(lines: BasketLine[], l: BasketLine): BasketLine[] {
  const same = lines.findIndex((x) => x.kind === l.kind && x.id === l.id && (l.kind === 'event' || x.time === l.time) && x.languageId === l.languageId && x.language === l.language);
  if (same < 0) return [...lines, l];
  return lines.map((x, i) => (i === same ? { ...x, quantity: x.quantity + l.quantity } : x));
}

export function orderItems(lines: BasketLine[]): OrderItemInput[] {
  return lines.map((l): OrderItemInput => {
    if (l.kind === 'ticket') return { type: 'Ticket', attributes: { id: l.id, quantity: l.quantity, time: l.time } };
    if (l.kind === 'giftcard') return { type: 'GiftCard', attributes: { amount_cents: l.id, quantity: l.quantity, ...(l.language ? { language: l.language } : {}) } };
    if (l.kind === 'voucher') return { type: 'Voucher', attributes: { ticket_id: l.id, quantity: l.quantity } };
    if (l.kind === 'tour') return { type: 'Tour', attributes: { id: l.id, quantity: l.quantity, start_time: l.time, language_id: l.languageId! } };
    return { type: 'Event', attributes: { id: l.id, quantity: l.quantity } };
  });
}

/**
 * The basket as the orders the sale makes: gift cards in an order of their own (ADR 0043: an
 * order with a gift card holds only gift cards), everything else in the other. Either may be empty.
 */
export function splitBasket(lines: BasketLine[]): { others: BasketLine[]; cards: BasketLine[] } {
  return { others: lines.filter((l) => l.kind !== 'giftcard'), cards: lines.filter((l) => l.kind === 'giftcard') };
}

export const EMPTY_QUOTE: Quote = { lines: [], totalCents: 0, codes: [], vat: [] };

/** At most this many codes on one sale. */
export const MAX_CODES = 5;

/**
 * Prices and checks the basket as the sale will (the caller's ctx carries the desk channel), with
 * its promo codes and vouchers applied by the orders' own discount rule to the lines that are not
 * gift cards (the order they make is the one that takes the codes).
 */
export async function quoteBasket(ctx: Ctx, lines: BasketLine[], codes: string[] = []): Promise<Quote> {
  if (lines.length > 30) throw invalid('the sale could not be made', ['a basket holds at most 30 lines']);
  if (codes.length > MAX_CODES) throw invalid('the sale could not be made', [`a sale takes at most ${MAX_CODES} codes`]);
  if (lines.length === 0) return EMPTY_QUOTE;
  // Priced as the two orders the sale makes, each through the orders' own pricing and checks.
  const { others, cards } = splitBasket(lines);
  if (codes.length && others.length === 0) throw codeError('CODE_NOT_APPLICABLE', 'codes apply to tickets, events and tours, not to gift cards');
  const prepared = new Map<BasketLine, PreparedItem>();
  const listPrice = new Map<BasketLine, number>();
  let applied: AppliedCode[] = [];
  for (const group of [others, cards]) {
    if (group.length === 0) continue;
    const out = await prepareItems(ctx.db, ctx, orderItems(group));
    group.forEach((l, n) => {
      prepared.set(l, out[n]!);
      listPrice.set(l, out[n]!.priceCents);
    });
    if (group === others && codes.length) applied = await discountItems(ctx, codes, out);
  }
  const items = lines.map((l) => prepared.get(l)!);
  await resolveClaims(ctx.db, ctx, items.flatMap((i) => (i.claim ? [i.claim] : [])));
  const priced = lines.map((l, n) => {
    const it = items[n]!;
    return { ...l, unitCents: it.unitPriceCents, totalCents: listPrice.get(l)!, vatPct: it.vatPct, start: it.startAt, zone: it.zone };
  });
  const vat = new Map<number, number>();
  items.forEach((it) => {
    if (it.type === 'GiftCard') return; // not subject to VAT: no rate to show
    const a = lineAmounts({ total_cents: it.priceCents, vat_pct: it.vatPct, tax_included: it.taxIncluded });
    vat.set(it.vatPct, (vat.get(it.vatPct) ?? 0) + a.vat_cents);
  });
  return {
    lines: priced,
    totalCents: items.reduce((s, i) => s + i.priceCents, 0),
    codes: codes.map((typed) => quotedCode(typed, applied)),
    vat: [...vat.entries()].sort((a, b) => a[0] - b[0]).map(([vatPct, vatCents]) => ({ vatPct, vatCents })),
  };
}

/** What a typed code took off: the promo code it names, or the voucher its check characters lead to. */
function quotedCode(typed: string, applied: AppliedCode[]): QuotedCode {
  const promo = normalizePromo(typed);
  const voucher = normalizeCode(typed);
  const hash = voucher ? codeHash(voucher) : null;
  const a = applied.find((x) => x.code?.code === promo) ?? applied.find((x) => hash !== null && x.voucher?.codeHash === hash);
  return { typed, label: a?.label ?? codeLabel(typed), cents: a?.discountCents ?? 0 };
}

/** How a typed code is named on screen: a promo code as itself, a voucher by its last four characters. */
export function codeLabel(typed: string): string {
  const voucher = normalizeCode(typed);
  return voucher ? voucherLabel(last4(voucher)) : normalizePromo(typed);
}

/** "50", "50,5", "12,50", "12.50" → cents; "" → null; anything else → NaN. */
export function parseMoney(text: string): number | null {
  const s = text.trim().replace(/\s|€/g, '');
  if (s === '') return null;
  const m = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + (m[2] ? Number(m[2].padEnd(2, '0')) : 0);
}
