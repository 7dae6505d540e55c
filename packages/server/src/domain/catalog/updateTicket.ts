import { lockTicket, quotaIdsOfTicket } from '../../db/repositories/catalog/products.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { ticketView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum, writeView } from './writeSupport.ts';
import { storeTicket, ticketAsInput, ticketProblems, type TicketInput } from './ticketWrite.ts';

/** Partial update; `quota_ids`, when given, replaces the ticket's quota links. */
export async function updateTicket(ctx: Ctx, input: TicketInput & { id: number }): Promise<View> {
  assertStaff(ctx);
  const { id, ...changes } = input;
  const { row, quotaIds } = await transaction(ctx.db, async (tx) => {
    // Row lock: two concurrent updates of one ticket must not interleave their quota rewrites.
    const current = await lockTicket(tx, id);
    if (!current || !inMuseumScope(ctx.principal, current.museumId)) throw notFound('ticket');
    const t: TicketInput = { ...ticketAsInput(current, await quotaIdsOfTicket(tx, id)), ...defined(changes) };
    // Turning a ticket into a day ticket drops its slot length unless one is sent (then it fails).
    if (changes.ticket_type === 'normal' && changes.entry_duration === undefined) t.entry_duration = null;
    if (t.museum_id !== current.museumId) await writableMuseum(ctx, tx, t.museum_id);
    failIfAny('ticket', await ticketProblems(tx, ctx.config, t));
    return storeTicket(tx, ctx, t, id);
  });
  const { L, today } = writeView(ctx);
  return ticketView(ctx.principal, row, L, { quotaIds, validAt: today });
}
