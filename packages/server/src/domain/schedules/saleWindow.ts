// When a dated product stops selling, by channel (one rule, asked by availability and by every
// booking through capacity/resolve.ts). Online and through partners a slot, event date or tour
// stops selling when it starts. At the box office a visitor standing at the desk may still buy
// the running slot (a walk-in at 13:32 gets the 13:30 entry): there it stops when its sold
// period ends (a time slot's entry duration, an event's or tour's run).
export type SaleChannel = 'desk';

/** Whether the period [start, end) can no longer be sold at `now` on `channel`. */
export function saleOver(channel: SaleChannel | undefined, start: Date, end: Date, now: Date): boolean {
  return channel === 'desk' ? end.getTime() <= now.getTime() : start.getTime() < now.getTime();
}
