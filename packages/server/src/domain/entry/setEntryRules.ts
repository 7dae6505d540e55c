// PUT /tickets/:id/entry_rules: how often a ticket admits, whether it admits again after an exit,
// and how early its door opens. Read at scan time, so a change applies to tickets already sold.
import { findTicketMuseum, upsertEntryRules } from '../../db/repositories/entry.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { DEFAULT_EARLY_MINUTES, DEFAULT_ENTRIES_ALLOWED } from './rules.ts';

export interface EntryRulesInput {
  entries_allowed?: number;
  reentry?: boolean;
  /** null = the instance default. */
  early_minutes?: number | null;
}

export async function setEntryRules(ctx: Ctx, ticketId: number, input: EntryRulesInput) {
  const ticket = await findTicketMuseum(ctx.db, ticketId);
  if (!ticket || !inMuseumScope(ctx.principal, ticket.museumId)) throw notFound('ticket');
  const values = {
    entriesAllowed: input.entries_allowed ?? DEFAULT_ENTRIES_ALLOWED,
    reentry: input.reentry ?? false,
    earlyMinutes: input.early_minutes ?? null,
    updatedAt: ctx.clock.now(),
  };
  await upsertEntryRules(ctx.db, ticketId, values);
  return {
    ticket_id: ticketId,
    entries_allowed: values.entriesAllowed,
    reentry: values.reentry,
    early_minutes: values.earlyMinutes ?? DEFAULT_EARLY_MINUTES,
  };
}
