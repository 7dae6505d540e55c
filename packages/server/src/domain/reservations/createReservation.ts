// A hold on capacity for one ticket slot or one event date. The reservation row and its
// allocation are written in one statement, so a refused claim leaves nothing behind.
import { sql } from 'drizzle-orm';
import { rowFromJson, rowToJson } from '../../db/json.ts';
import { reservations } from '../../db/schema/index.ts';
import { eventDateById, ticketById } from '../capacity/catalog.ts';
import { newSecret } from '../accounts/tokens.ts';
import { checkHoldLimits, claimErrors, claimSpec, resolveClaims, type Claim } from '../capacity/index.ts';
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

  // Checked against the catalogue before any write (master data from the process memo): an
  // invalid hold writes nothing, and day tickets are normalised to their first entry.
  const [resolved] = await resolveClaims(ctx.db, ctx, [claim]);
  await checkHoldLimits(ctx.db, ctx, [resolved!]);
  // The row and its claim in one statement (src/db/sql/reservation_place.sql): the slot lock
  // is held for that statement's claim and commit only, as for orders (ADR 0009).
  const payload = {
    reservation: rowToJson(reservations, {
      token: newSecret(),
      accountId,
      ticketId: input.ticketId ?? null,
      eventDateId: input.dateId ?? null,
      quantity: input.quantity,
      startAt: resolved!.startAt,
      createdAt: now,
      expiresAt,
      lifetimeEndsAt,
    }),
    claim: claimSpec(ctx, [resolved!], expiresAt, []),
  };
  const result = await claimErrors(() => ctx.db.execute<{ r: Record<string, unknown> }>(sql`select reservation_place(${JSON.stringify(payload)}::jsonb) as r`));
  const row = rowFromJson(reservations, result.rows[0]!.r);
  return toView(row, target.zone);
}

async function ticketTarget(ctx: Ctx, ticketId: number, startAt: string | undefined) {
  const ticket = await ticketById(ctx, ctx.db, ticketId);
  if (!ticket) throw invalid('reservation could not be saved', [`ticket ${ticketId} not found`]);
  if (!isBookableBy(ctx.principal, ticket)) throw notBookable('ticket');
  if (startAt === undefined) throw invalid('reservation could not be saved', ["start_at can't be blank"]);
  const at = parseTimestamp(startAt, ticket.zone);
  if (!at) throw invalid('reservation could not be saved', ['start_at is not a valid ISO 8601 time']);
  return { kind: 'ticket' as const, startAt: at, zone: ticket.zone };
}

async function dateTarget(ctx: Ctx, dateId: number) {
  const r = await eventDateById(ctx, ctx.db, dateId);
  if (!r) throw invalid('reservation could not be saved', [`date ${dateId} not found`]);
  const product: Sellable = { ...r.event, active: r.event.active && r.date.active };
  if (!isBookableBy(ctx.principal, product)) throw notBookable('date');
  return { kind: 'event_date' as const, startAt: r.date.startAt, zone: r.zone };
}
