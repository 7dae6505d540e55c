import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ticketView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum, writeView } from './writeSupport.ts';
import { storeTicket, TICKET_DEFAULTS, ticketProblems, type TicketInput } from './ticketWrite.ts';

export async function createTicket(ctx: Ctx, input: TicketInput): Promise<View> {
  assertStaff(ctx);
  const { row, quotaIds } = await transaction(ctx.db, async (tx) => {
    await writableMuseum(ctx, tx, input.museum_id);
    const t: TicketInput = { ...TICKET_DEFAULTS, ...defined(input) };
    failIfAny('ticket', await ticketProblems(tx, ctx.config, t));
    return storeTicket(tx, ctx, t);
  });
  const { L, today } = writeView(ctx);
  return ticketView(ctx.principal, row, L, { quotaIds, validAt: today });
}
