import type { Ctx } from '../context.ts';
import { resolveLocale } from './internal.ts';
import { validAtOf } from './listTickets.ts';
import { quotaIdsByTicket } from './loaders.ts';
import { findTicket } from './lookups.ts';
import { ticketView, type View } from './views.ts';

/** One ticket; outside its validity on `valid_at` it is still shown, with `bookable: false`. */
export async function getTicket(
  ctx: Ctx,
  input: { id: number; locale?: string | string[] | undefined; valid_at?: string | undefined },
): Promise<View> {
  const L = resolveLocale(ctx, input.locale);
  const validAt = validAtOf(ctx, input.valid_at);
  const t = await findTicket(ctx, input.id);
  const quotaIds = await quotaIdsByTicket(ctx.db, [t.id]);
  return ticketView(ctx.principal, t, L, { quotaIds: quotaIds.get(t.id) ?? [], validAt });
}
