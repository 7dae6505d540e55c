// GET /customers: the caller's visible customers, id ascending, with exact-match filters.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { customers } from '../../db/schema/index.ts';
import type { Ctx } from '../context.ts';
import { scope, toRecord, writer, type CustomerRecord } from './internal.ts';

export interface ListCustomersInput {
  foreign_id?: string;
  email?: string;
  page?: number;
  per_page?: number;
}

export async function listCustomers(
  ctx: Ctx,
  input: ListCustomersInput,
): Promise<{ customers: CustomerRecord[]; meta: { total_count: number; page: number; per_page: number } }> {
  const p = writer(ctx.principal);
  const page = input.page ?? 1;
  // Larger page sizes are capped, not refused (docs/api-contract.md §1).
  const perPage = Math.min(input.per_page ?? ctx.config.defaultPerPage, ctx.config.maxPerPageAuthenticated);
  const where = and(
    scope(p),
    input.foreign_id !== undefined ? eq(customers.foreignId, input.foreign_id.trim()) : undefined,
    // E-mail addresses are compared case-insensitively: clients store them in any case.
    input.email !== undefined ? eq(sql`lower(${customers.email})`, input.email.trim().toLowerCase()) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(customers)
      .where(where)
      .orderBy(asc(customers.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    ctx.db.select({ n: count() }).from(customers).where(where),
  ]);
  return {
    customers: rows.map((r) => toRecord(r, ctx.config.zone)),
    meta: { total_count: total?.n ?? 0, page, per_page: perPage },
  };
}
