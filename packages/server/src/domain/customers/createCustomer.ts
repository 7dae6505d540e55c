// POST /customers (spec 2.2, 2.3): validates, inserts, and treats a repeated foreign_id of the
// same account as a retry: same content → the existing record (replayed), different → conflict.
import type { Ctx } from '../context.ts';
import { checkNew, foreignIdConflict, insertOrFind, saveFailed, sameContent, toRecord, writer, type CustomerRecord } from './internal.ts';
import { parseCustomerFields } from './validation.ts';

export async function createCustomer(
  ctx: Ctx,
  input: Record<string, unknown>,
): Promise<{ customer: CustomerRecord; replayed: boolean }> {
  const p = writer(ctx.principal);
  const { given, errors } = parseCustomerFields(input);
  if (errors.length) throw saveFailed(errors);
  const record = checkNew(given, saveFailed);
  const { row, created } = await insertOrFind(ctx.db, p, record, ctx.clock.now());
  if (!created && !sameContent(given, row)) throw foreignIdConflict();
  return { customer: toRecord(row, ctx.config.zone), replayed: !created };
}
