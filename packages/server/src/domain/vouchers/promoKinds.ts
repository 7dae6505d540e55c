// What each promo kind takes off the items it applies to (docs/vouchers.md). Pure arithmetic on
// admissions ("units"): an item of quantity q and price P is q units, each floor(P / q), the
// rounding rest on its last unit. The answer is the discount per item, never above its price.
import type { PromoCodeRow } from '../../db/repositories/promoCodes.ts';

/** What a code needs to know of an item: the product, the visit and the price as it stands. */
export interface PricedItem {
  /** GiftCard and Voucher lines (a sale of codes) take no discount; absent means an admission. */
  type?: string;
  ticketId: number | null;
  eventId: number | null;
  tourId: number | null;
  startAt: Date;
  zone: string;
  quantity: number;
  priceCents: number;
}

interface Unit {
  item: number;
  cents: number;
}

function unitsOf(items: PricedItem[], indexes: number[]): Unit[] {
  const out: Unit[] = [];
  for (const n of indexes) {
    const it = items[n]!;
    const each = Math.floor(it.priceCents / Math.max(it.quantity, 1));
    for (let k = 0; k < it.quantity; k++) out.push({ item: n, cents: k === it.quantity - 1 ? it.priceCents - each * (it.quantity - 1) : each });
  }
  // Dearest first: the free or reduced admissions are always the cheapest ones.
  return out.sort((a, b) => b.cents - a.cents);
}

/** A total spread over items in proportion to their prices (the rounding rest on the last). */
function spread(items: PricedItem[], indexes: number[], total: number, out: Map<number, number>) {
  const base = indexes.reduce((s, n) => s + items[n]!.priceCents, 0);
  const amount = Math.min(total, base);
  let left = amount;
  indexes.forEach((n, k) => {
    const part = k === indexes.length - 1 ? left : Math.floor((amount * items[n]!.priceCents) / Math.max(base, 1));
    out.set(n, (out.get(n) ?? 0) + part);
    left -= part;
  });
}

function take(units: Unit[], pct: number, out: Map<number, number>) {
  for (const u of units) out.set(u.item, (out.get(u.item) ?? 0) + Math.floor((u.cents * pct) / 100));
}

/**
 * The discount per item index for a code of any kind. `eligible` are the items the code's
 * products and visit dates match; `companions` the items of its companion ticket (free_companion).
 */
export function discountsOf(c: PromoCodeRow, items: PricedItem[], eligible: number[], companions: number[]): Map<number, number> {
  const out = new Map<number, number>();
  const base = eligible.reduce((s, n) => s + items[n]!.priceCents, 0);
  switch (c.kind) {
    case 'percent':
      spread(items, eligible, Math.floor((base * c.percent!) / 100), out);
      break;
    case 'amount':
      spread(items, eligible, c.amountCents!, out);
      break;
    case 'free_item':
      take(unitsOf(items, eligible).slice(-c.getQuantity!), 100, out);
      break;
    case 'buy_x_get_y': {
      // In every group of X + Y admissions (dearest first) the last Y are reduced.
      const units = unitsOf(items, eligible);
      const group = c.buyQuantity! + c.getQuantity!;
      take(units.filter((_, k) => k % group >= c.buyQuantity! && k < units.length - (units.length % group)), c.percent!, out);
      break;
    }
    case 'free_companion': {
      const paid = unitsOf(items, eligible.filter((n) => !companions.includes(n)));
      if (c.companionTicketId === null) {
        // The companion is one of the same admissions: one free per N paid, out of N + 1.
        const units = unitsOf(items, eligible);
        take(units.slice(units.length - Math.floor(units.length / (c.buyQuantity! + 1))), 100, out);
      } else {
        const free = Math.floor(paid.length / c.buyQuantity!);
        const comp = unitsOf(items, companions);
        take(comp.slice(Math.max(comp.length - free, 0)), 100, out);
      }
      break;
    }
  }
  if (c.capCents !== null) capTo(out, c.capCents);
  return out;
}

/** Lowers the parts (from the last item) until they sum to at most the cap. */
function capTo(out: Map<number, number>, cap: number) {
  let over = [...out.values()].reduce((s, v) => s + v, 0) - cap;
  for (const n of [...out.keys()].reverse()) {
    if (over <= 0) break;
    const cut = Math.min(out.get(n)!, over);
    out.set(n, out.get(n)! - cut);
    over -= cut;
  }
}
