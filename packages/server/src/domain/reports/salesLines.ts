// The sales ledger a report sums (db/repositories/reports.ts holds its SQL and its rules): each
// charged item on the day its order was finalized (+1), each later cancellation on its day (-1),
// grouped into distinct lines that the caller rounds by the invoices' one rule.
import { salesLedgerRows, type LedgerRow, type SalesDimension } from '../../db/repositories/reports.ts';
import type { Ctx } from '../context.ts';
import { rangeOf, type ReportScope } from './range.ts';

export type { LedgerRow, SalesDimension };

export async function salesLedger(ctx: Ctx, scope: ReportScope, by: SalesDimension): Promise<LedgerRow[]> {
  return salesLedgerRows(ctx.db, rangeOf(scope), by);
}
