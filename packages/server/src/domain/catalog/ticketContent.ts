// go~mus GET /tickets/content: the CMS content of the given tickets. Atrium keeps no CMS content,
// so each ticket the caller may see (the tickets list's visibility, `listTickets`) answers an empty
// object; a ticket id the caller cannot see is left out, as the list leaves it out.
import type { Ctx } from '../context.ts';
import type { Page } from './internal.ts';
import { listTickets } from './listTickets.ts';

export interface TicketContentInput {
  ticket_ids: number[];
  locale?: string | string[] | undefined;
  page?: number | undefined;
  per_page?: number | undefined;
}

export async function listTicketContent(ctx: Ctx, input: TicketContentInput): Promise<Page<{ id: number; content: Record<string, never> }>> {
  const page = await listTickets(ctx, { by_ticket_ids: input.ticket_ids, locale: input.locale, page: input.page, per_page: input.per_page });
  return { ...page, items: page.items.map((t) => ({ id: t.id as number, content: {} })) };
}
