// When a visitor may cancel (or move) an order item themselves (docs/shop.md): the rule of the
// ticket, event or tour it books, else the shop's default (instance default: until 24 hours before
// the visit). A rule is 'never' or 'Nh': allowed while now is at least N hours before the item's
// start; at exactly N hours it is still allowed, a millisecond later it is not.

export type CancellationRule = { kind: 'never' } | { kind: 'hours'; hours: number };

/** 'never' | 'Nh' (N from 0 to 9999), as stored on tickets, events, tours and the settings. */
export function parseRule(text: string | null | undefined): CancellationRule | null {
  if (text === 'never') return { kind: 'never' };
  const m = /^([0-9]{1,4})h$/.exec(text ?? '');
  return m ? { kind: 'hours', hours: Number(m[1]) } : null;
}

export function ruleText(rule: CancellationRule): string {
  return rule.kind === 'never' ? 'never' : `${rule.hours}h`;
}

/** The last instant the item may be cancelled, or null when never. */
export function cancellableUntil(rule: CancellationRule, startAt: Date): Date | null {
  return rule.kind === 'never' ? null : new Date(startAt.getTime() - rule.hours * 3_600_000);
}

/**
 * Whether the visitor may cancel an item now. `own` is the product's rule text (null: the
 * default applies); `fallback` the shop's default. Only active items can be cancelled.
 */
export function mayCancel(item: { status: string; startAt: Date; rule: string | null }, fallback: CancellationRule, now: Date): boolean {
  if (item.status !== 'active') return false;
  const until = cancellableUntil(parseRule(item.rule) ?? fallback, item.startAt);
  return until !== null && now.getTime() <= until.getTime();
}
