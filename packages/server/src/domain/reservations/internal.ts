// Shared lookups of reservations. A reservation belongs to the account that made it: another
// account's token is indistinguishable from an unknown one (404), so tokens cannot be probed.
import type { DbOrTx, Tx } from '../../db/client.ts';
import { lockReservationsByToken, unreleasedReservationIds, type ReservationRow } from '../../db/repositories/reservations.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';

export type { ReservationRow };

export const expired = () => new DomainError('RESERVATION_EXPIRED', 'reservation not valid anymore');

/** The caller's account id; reservation routes admit only account tokens. */
export function ownerOf(ctx: Ctx): number {
  if (ctx.principal.kind !== 'account') throw notFound('reservation');
  return ctx.principal.accountId;
}

/** Whether a hold still counts at `now` (the same rule as its capacity allocation). */
export function isLive(r: ReservationRow, now: Date): boolean {
  return r.releasedAt === null && r.consumedAt === null && r.expiresAt > now;
}

/** Locks (FOR UPDATE) the caller's reservations with these tokens, in id order. */
export async function lockOwnRows(tx: Tx | DbOrTx, ctx: Ctx, tokens: string[]): Promise<ReservationRow[]> {
  const unique = [...new Set(tokens)];
  if (unique.length === 0) return [];
  const rows = await lockReservationsByToken(tx, ownerOf(ctx), unique);
  if (rows.length !== unique.length) throw notFound('reservation');
  return rows;
}

/**
 * For the orders helper: locks the caller's live reservations by token. Unknown or not own →
 * NOT_FOUND; expired, released or consumed → RESERVATION_EXPIRED. The lock keeps a concurrent
 * PUT/DELETE or a second order from using the same hold.
 */
export async function lockOwnReservations(
  tx: Tx,
  ctx: Ctx,
  tokens: string[],
): Promise<Array<{ id: number; token: string; ticketId: number | null; eventDateId: number | null; quantity: number; startAt: Date }>> {
  const rows = await lockOwnRows(tx, ctx, tokens);
  const now = ctx.clock.now();
  if (rows.some((r) => !isLive(r, now))) throw expired();
  return rows.map((r) => ({ id: r.id, token: r.token, ticketId: r.ticketId, eventDateId: r.eventDateId, quantity: r.quantity, startAt: r.startAt }));
}

/** Ids of the caller's live holds among `tokens` (for `reservations[]` in availability reads). */
export async function ownLiveReservationIds(db: DbOrTx, ctx: Ctx, tokens: string[]): Promise<number[]> {
  if (tokens.length === 0 || ctx.principal.kind !== 'account') return [];
  return unreleasedReservationIds(db, ctx.principal.accountId, [...new Set(tokens)]);
}
