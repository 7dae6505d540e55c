// GET /customers/:ref: the numeric id, falling back to foreign_id; outside the caller's scope is 404.
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { findCustomer, toRecord, writer, type CustomerRecord } from './internal.ts';

export async function getCustomer(ctx: Ctx, input: { ref: string }): Promise<CustomerRecord> {
  const row = await findCustomer(ctx.db, writer(ctx.principal), input.ref);
  if (!row) throw notFound('customer');
  return toRecord(row, ctx.config.zone);
}
