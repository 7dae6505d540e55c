// The customer of an order or request (docs/api-contract.md §7, §9): either embedded (`customer: {...}`) or a
// reference (`customer_id`: numeric id or foreign_id). Runs inside the caller's transaction so the
// customer and the order it belongs to are written together or not at all.
import type { Tx } from '../../db/client.ts';
import { updateCustomerRow } from '../../db/repositories/customers.ts';
import type { Ctx } from '../context.ts';
import { DomainError, invalid, notFound } from '../errors.ts';
import { checkNew, columnsOf, fieldsOf, findCustomer, insertOrFind, sameContent, writer } from './internal.ts';
import { nested, parseCustomerFields, validateCustomer } from './validation.ts';

export interface OrderCustomerInput {
  customer?: unknown;
  customer_id?: number | string;
}

/**
 * Returns the customer id to store on the order, or null when the input names no customer.
 * Validation messages are prefixed ("Customer email can't be blank") and raised as
 * VALIDATION_FAILED "<parent> could not be saved". An embedded customer whose foreign_id this
 * account already knows is reused, and updated with the fields it carries.
 */
export async function resolveOrderCustomer(
  tx: Tx,
  ctx: Ctx,
  input: OrderCustomerInput,
  opts: { parent?: string } = {},
): Promise<number | null> {
  const parent = opts.parent ?? 'order';
  const fail = (errors: string[]): DomainError => invalid(`${parent} could not be saved`, nested('Customer', errors));
  const hasEmbedded = input.customer !== undefined && input.customer !== null;
  const hasRef = input.customer_id !== undefined && input.customer_id !== null && input.customer_id !== '';
  if (!hasEmbedded && !hasRef) return null;
  const p = writer(ctx.principal);
  if (hasEmbedded && hasRef) throw invalid(`${parent} could not be saved`, ['Give either customer or customer_id, not both']);

  if (hasRef) {
    const row = await findCustomer(tx, p, input.customer_id!);
    if (!row) throw notFound('customer');
    return row.id;
  }

  const raw = input.customer;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw fail(['Is invalid']);
  const { given, errors } = parseCustomerFields(raw as Record<string, unknown>);
  if (errors.length) throw fail(errors);
  // Validated exactly like POST /customers, before anything is written.
  const record = checkNew(given, fail);
  const { row, created } = await insertOrFind(tx, p, record, ctx.clock.now());
  if (created || sameContent(given, row)) return row.id;

  // Known foreign_id with changed fields: the order carries the customer's current data.
  const merged = { ...fieldsOf(row), ...given };
  const problems = validateCustomer(merged);
  if (problems.length) throw fail(problems);
  await updateCustomerRow(tx, row.id, { ...columnsOf(merged), updatedAt: ctx.clock.now() });
  return row.id;
}
