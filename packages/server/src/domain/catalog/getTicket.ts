import { ticketWithQuotas } from '../../db/repositories/catalog/records.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { resolveLocale } from './internal.ts';
import { validAtOf } from './listTickets.ts';
import { ticketView, type View } from './views.ts';
import { isVisibleTo } from './visibility.ts';

/** One ticket; outside its validity on `valid_at` it is still shown, with `bookable: false`. */
export async function getTicket(
  ctx: Ctx,
  input: { id: number; locale?: string | string[] | undefined; valid_at?: string | undefined },
): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  const validAt = validAtOf(ctx, input.valid_at);
  // The row and its quota ids in one statement; visibility is the one rule (visibility.ts), and
  // an invisible ticket is "not found" like a missing one (lookups.ts).
  const t = await ticketWithQuotas(ctx.db, input.id);
  if (!t || !isVisibleTo(ctx.principal, t)) throw notFound('ticket');
  return ticketView(ctx.principal, t, L, { quotaIds: t.quotaIds, validAt });
}
