// PUT /customers (record found by foreign_id in the body, spec 2.3.2) and PUT /customers/:ref
// (numeric id, falling back to foreign_id). Only the given fields change; the merged record is
// validated as a whole, so a PUT can never leave a customer that a POST would refuse.
import { isDbError } from '../../db/errors.ts';
import { updateCustomerRow } from '../../db/repositories/customers.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { columnsOf, fieldsOf, findCustomer, foreignIdConflict, saveFailed, toRecord, writer, type CustomerRecord } from './internal.ts';
import { parseCustomerFields, validateCustomer } from './validation.ts';

export async function updateCustomer(
  ctx: Ctx,
  input: { ref?: string | number; fields: Record<string, unknown> },
): Promise<CustomerRecord> {
  const p = writer(ctx.principal);
  const { given, errors } = parseCustomerFields(input.fields);
  if (errors.length) throw saveFailed(errors);
  const ref = input.ref ?? given.foreign_id;
  if (ref === undefined || ref === null) throw saveFailed(["Foreign id can't be blank"]);
  const now = ctx.clock.now();
  try {
    const row = await transaction(ctx.db, async (tx) => {
      // FOR UPDATE: two concurrent PUTs each merge onto the other's committed result instead of
      // silently overwriting fields the other one changed.
      const current = await findCustomer(tx, p, ref, { forUpdate: true });
      if (!current) throw notFound('customer');
      const merged = { ...fieldsOf(current), ...given };
      const problems = validateCustomer(merged);
      if (problems.length) throw saveFailed(problems);
      return updateCustomerRow(tx, current.id, { ...columnsOf(merged), updatedAt: now });
    });
    return toRecord(row, ctx.config.zone);
  } catch (err) {
    // A new foreign_id that another customer of the same account already carries.
    if (isDbError(err, 'UNIQUE_VIOLATION')) throw foreignIdConflict();
    throw err;
  }
}
