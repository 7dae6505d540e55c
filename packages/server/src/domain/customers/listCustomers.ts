// GET /customers: the caller's visible customers, id ascending, with exact-match filters.
import { pageOfCustomers } from '../../db/repositories/customers.ts';
import type { Ctx } from '../context.ts';
import { scope, toRecord, writer, type CustomerRecord } from './internal.ts';

export interface ListCustomersInput {
  foreign_id?: string;
  email?: string;
  /** Start of a surname or first name, or "Surname, Name" (the console search's rule). */
  name?: string;
  page?: number;
  per_page?: number;
}

/** "Müller, Anna" -> surname and first name; "Anna Müller" -> both orders; "Müller" -> either name. */
export function nameParts(q: string): string[] {
  return q.split(/\s*,\s*|\s+/).filter(Boolean).slice(0, 2);
}

export async function listCustomers(
  ctx: Ctx,
  input: ListCustomersInput,
): Promise<{ customers: CustomerRecord[]; meta: { total_count: number; page: number; per_page: number } }> {
  const p = writer(ctx.principal);
  const page = input.page ?? 1;
  // Larger page sizes are capped, not refused (docs/api-contract.md §1).
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const { rows, total } = await pageOfCustomers(
    ctx.db,
    {
      scope: scope(p),
      ...(input.foreign_id !== undefined ? { foreignId: input.foreign_id.trim() } : {}),
      // E-mail addresses are compared case-insensitively: clients store them in any case.
      ...(input.email !== undefined ? { email: input.email.trim().toLowerCase() } : {}),
      ...(input.name !== undefined && input.name.trim() ? { name: nameParts(input.name) } : {}),
    },
    { limit: perPage, offset: (page - 1) * perPage },
  );
  return {
    customers: rows.map((r) => toRecord(r, ctx.config.zone)),
    meta: { total_count: total, page, per_page: perPage },
  };
}
