// Capacity of a set of tickets grouped by quota (go~mus GET /tickets/capacities): per quota the
// requested tickets drawing on it, what is left per slot (zeros included) and the configured
// totals. Clients take the minimum over a ticket's quotas themselves. Only tickets the caller
// may see are included; a quota closed that day has no slots.
import type { Ctx } from '../context.ts';
import { capacityAt } from '../capacity/quotas.ts';
import { quotaSlotKey } from '../capacity/slots.ts';
import { localDateOf } from '../time.ts';
import { saleOver } from '../schedules/saleWindow.ts';
import { dateParam, freeHolds, quotaLeft, ticketDay, usage, visibleTickets, type DayUsage, type TicketRow } from './internal.ts';

export interface QuotaCapacities {
  quotaId: number;
  zone: string;
  tickets: number[];
  capacities: Map<number, number>;
  totals: Map<number, number>;
}

export async function getTicketCapacities(
  ctx: Ctx,
  input: { ticketIds: number[]; date?: string | undefined; reservations?: string[] | undefined },
): Promise<QuotaCapacities[]> {
  const tix = await visibleTickets(ctx, input.ticketIds);
  const now = ctx.clock.now();
  const date = dateParam(ctx, input.date, tix[0]?.zone ?? ctx.config.zone);
  if (tix.length === 0) return [];
  const u = await usage(ctx, now, tix, [date], await freeHolds(ctx, input.reservations));
  return quotaCapacitiesOn(tix, date, now, u, ctx.channel);
}

/**
 * The groups of one date from usage already read (`u` must cover `date`): the ticket calendar
 * reads usage once for its whole range and takes each day from it, never a round trip per day.
 */
export function quotaCapacitiesOn(tix: TicketRow[], date: string, now: Date, u: DayUsage, channel?: Ctx['channel']): QuotaCapacities[] {
  const groups = new Map<number, QuotaCapacities>();
  for (const t of tix) {
    const slots = ticketDay(t, date, now, u, channel);
    for (const q of u.quotas.get(date)?.get(t.id) ?? []) {
      const g: QuotaCapacities = groups.get(q.quotaId) ?? { quotaId: q.quotaId, zone: t.zone, tickets: [], capacities: new Map(), totals: new Map() };
      groups.set(q.quotaId, g);
      g.tickets.push(t.id);
      if (slots.length === 0) continue; // closed or not valid that day
      const today = localDateOf(now, t.zone);
      for (const s of q.kind === 'day' ? [slots[0]!] : slots) {
        const past = q.kind === 'day' ? date < today : saleOver(channel, s.start, new Date(s.start.getTime() + (t.entryDuration ?? 0) * 60_000), now);
        // A day quota has one pool: shown once, at the earliest first entry of its tickets.
        const shown = s.start.getTime();
        if (q.kind === 'day') {
          const prev = [...g.capacities.keys()][0];
          if (prev !== undefined && prev <= shown) continue;
          g.capacities.clear();
          g.totals.clear();
        }
        g.capacities.set(shown, past ? 0 : quotaLeft(q, quotaSlotKey(q.kind, s.start, t.zone), u));
        g.totals.set(shown, capacityAt(q, quotaSlotKey(q.kind, s.start, t.zone)));
      }
    }
  }
  return [...groups.values()].sort((a, b) => a.quotaId - b.quotaId);
}

