// A hold on capacity for one ticket slot or one event date. The reservation row and its
// allocation are written in one statement, so a refused claim leaves nothing behind.
import { placeReservation } from '../../db/repositories/reservations.ts';
import { transaction } from '../../db/transaction.ts';
import { eventDateById, ticketById } from '../capacity/catalog.ts';
import { newSecret } from '../accounts/tokens.ts';
import { claimErrors, claimSpec, resolveClaims } from '../capacity/claimCapacity.ts';
import { checkHoldLimits, limitedAccount } from '../capacity/holdLimits.ts';
import type { Claim } from '../capacity/types.ts';
import { isBookableBy, type Sellable } from '../catalog/visibility.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid } from '../errors.ts';
import { eventPrice, ticketPrice } from '../orders/items.ts';
import { parseTimestamp } from '../time.ts';
import { discountItems } from '../vouchers/promoApply.ts';
import { ownerOf } from './internal.ts';
import { toView, type ReservationView } from './view.ts';

export interface CreateReservationInput {
  ticketId?: number | undefined;
  dateId?: number | undefined;
  quantity: number;
  startAt?: string | undefined;
  /** Promo codes and vouchers: checked as an order checks them and answered with their effect. */
  codes?: string[] | undefined;
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
  const wanted: Claim =
    target.kind === 'ticket'
      ? { kind: 'ticket', ticketId: input.ticketId!, startAt: target.startAt, quantity: input.quantity }
      : { kind: 'event_date', eventDateId: input.dateId!, quantity: input.quantity };

  // Checked against the catalogue before any write (master data from the process memo): an
  // invalid hold writes nothing, and day tickets are normalised to their first entry.
  const [resolved] = await resolveClaims(ctx.db, ctx, [wanted]);
  // Codes are checked by the orders' one verb on the priced hold; a refused one throws before any
  // write. A hold takes no use: the order that turns it into a sale names the codes and takes them.
  const priced = { ...target.product, startAt: resolved!.startAt, zone: target.zone, quantity: input.quantity, priceCents: target.price(input.quantity) };
  const applied = input.codes?.length ? await discountItems(ctx, input.codes, [priced]) : [];
  // The row and its claim in one statement (reservation_place, src/db/sql/reservation_place.sql):
  // the slot lock is held for that statement's claim and commit only, as for orders (ADR 0009).
  const reservation = {
    token: newSecret(),
    accountId,
    ticketId: input.ticketId ?? null,
    eventDateId: input.dateId ?? null,
    quantity: input.quantity,
    startAt: resolved!.startAt,
    createdAt: now,
    expiresAt,
    lifetimeEndsAt,
  };
  const claim = claimSpec(ctx, [resolved!], expiresAt, []);
  // A limited account checks its limits and claims in one transaction, under its hold lock
  // (holdLimits.ts); anyone else claims in the single statement.
  const row = await claimErrors(() =>
    limitedAccount(ctx) === null
      ? placeReservation(ctx.db, reservation, claim)
      : transaction(ctx.db, async (tx) => {
          await checkHoldLimits(tx, ctx, [resolved!]);
          return placeReservation(tx, reservation, claim);
        }),
  );
  // Only a hold with codes answers its price and discounts; others keep the go~mus shape.
  if (!input.codes?.length) return toView(row, target.zone);
  return { ...toView(row, target.zone), priceCents: priced.priceCents, discounts: applied.map((a) => ({ code: a.label, amountCents: a.discountCents })) };
}

async function ticketTarget(ctx: Ctx, ticketId: number, startAt: string | undefined) {
  const ticket = await ticketById(ctx, ctx.db, ticketId);
  if (!ticket) throw invalid('reservation could not be saved', [`ticket ${ticketId} not found`]);
  if (!isBookableBy(ctx.principal, ticket)) throw notBookable('ticket');
  if (startAt === undefined) throw invalid('reservation could not be saved', ["start_at can't be blank"]);
  const at = parseTimestamp(startAt, ticket.zone);
  if (!at) throw invalid('reservation could not be saved', ['start_at is not a valid ISO 8601 time']);
  return {
    kind: 'ticket' as const, startAt: at, zone: ticket.zone, product: { ticketId: ticket.id, eventId: null, tourId: null },
    price: (q: number) => ticketPrice(ctx.principal, ticket, q),
  };
}

async function dateTarget(ctx: Ctx, dateId: number) {
  const r = await eventDateById(ctx, ctx.db, dateId);
  if (!r) throw invalid('reservation could not be saved', [`date ${dateId} not found`]);
  const product: Sellable = { ...r.event, active: r.event.active && r.date.active };
  if (!isBookableBy(ctx.principal, product)) throw notBookable('date');
  return {
    kind: 'event_date' as const, startAt: r.date.startAt, zone: r.zone, product: { ticketId: null, eventId: r.event.id, tourId: null },
    price: (q: number) => eventPrice(ctx.principal, r.event, q),
  };
}
