// A hold on capacity for one ticket slot or one event date. The reservation row and its
// allocation are written in one transaction, so a refused claim leaves nothing behind.
import { eq } from 'drizzle-orm';
import { eventDates, events, museums, reservations, tickets } from '../../db/schema/index.ts';
import { newSecret } from '../accounts/tokens.ts';
import { claimCapacity, type Claim } from '../capacity/index.ts';
import { isBookableBy, type Sellable } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid } from '../errors.ts';
import { parseTimestamp } from '../time.ts';
import { ownerOf } from './internal.ts';
import { toView, type ReservationView } from './view.ts';

export interface CreateReservationInput {
  ticketId?: number | undefined;
  dateId?: number | undefined;
  quantity: number;
  startAt?: string | undefined;
}

const notBookable = (what: string) => new DomainError('NOT_BOOKABLE', `${what} not bookable in the current auth context`);

export async function createReservation(ctx: Ctx, input: CreateReservationInput): Promise<ReservationView> {
  const accountId = ownerOf(ctx);
  if ((input.ticketId === undefined) === (input.dateId === undefined)) {
    throw invalid('reservation could not be saved', ['give either ticket_id (with start_at) or date_id']);
  }
  const target = input.ticketId !== undefined ? await ticketTarget(ctx, input.ticketId, input.startAt) : await dateTarget(ctx, input.dateId!);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.holdMinutes * 60_000);
  const lifetimeEndsAt = new Date(now.getTime() + ctx.config.holdMaxMinutes * 60_000);
  const claim: Claim =
    target.kind === 'ticket'
      ? { kind: 'ticket', ticketId: input.ticketId!, startAt: target.startAt, quantity: input.quantity }
      : { kind: 'event_date', eventDateId: input.dateId!, quantity: input.quantity };

  const row = await ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(reservations)
      .values({
        token: newSecret(),
        accountId,
        ticketId: input.ticketId ?? null,
        eventDateId: input.dateId ?? null,
        quantity: input.quantity,
        startAt: target.startAt,
        createdAt: now,
        expiresAt,
        lifetimeEndsAt,
      })
      .returning();
    const [claimed] = await claimCapacity(tx, ctx, [{ claim, holder: { reservationId: r!.id }, expiresAt }]);
    // Day tickets are normalised to first entry: store the slot actually held.
    if (claimed!.startAt.getTime() === r!.startAt.getTime()) return r!;
    const [u] = await tx.update(reservations).set({ startAt: claimed!.startAt }).where(eq(reservations.id, r!.id)).returning();
    return u!;
  });
  return toView(row, target.zone);
}

async function ticketTarget(ctx: Ctx, ticketId: number, startAt: string | undefined) {
  const [r] = await ctx.db
    .select({ ticket: tickets, zone: museums.timeZone })
    .from(tickets)
    .innerJoin(museums, eq(museums.id, tickets.museumId))
    .where(eq(tickets.id, ticketId));
  if (!r) throw invalid('reservation could not be saved', [`ticket ${ticketId} not found`]);
  if (!isBookableBy(ctx.principal, r.ticket)) throw notBookable('ticket');
  if (startAt === undefined) throw invalid('reservation could not be saved', ["start_at can't be blank"]);
  const at = parseTimestamp(startAt, r.zone);
  if (!at) throw invalid('reservation could not be saved', ['start_at is not a valid ISO 8601 time']);
  return { kind: 'ticket' as const, startAt: at, zone: r.zone };
}

async function dateTarget(ctx: Ctx, dateId: number) {
  const [r] = await ctx.db
    .select({ date: eventDates, event: events, zone: museums.timeZone })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(museums, eq(museums.id, events.museumId))
    .where(eq(eventDates.id, dateId));
  if (!r) throw invalid('reservation could not be saved', [`date ${dateId} not found`]);
  const product: Sellable = { ...r.event, active: r.event.active && r.date.active };
  if (!isBookableBy(ctx.principal, product)) throw notBookable('date');
  return { kind: 'event_date' as const, startAt: r.date.startAt, zone: r.zone };
}
