// Runs a staff write and its audit entries in ONE transaction: the domain verb gets a context
// whose db is the transaction (verbs that open their own transaction join it), and
// the entries are written after it succeeded, before the commit. A failed verb writes neither.
import { transaction } from '../../db/transaction.ts';
import type { StaffCtx } from '../staff/principal.ts';
import { recordAudit, type AuditEntry } from './recordAudit.ts';

export async function audited<T>(ctx: StaffCtx, run: (tx: StaffCtx) => Promise<T>, entries: (result: T) => AuditEntry | AuditEntry[]): Promise<T> {
  return transaction(ctx.db, async (tx) => {
    const txCtx: StaffCtx = { ...ctx, db: tx };
    const result = await run(txCtx);
    for (const e of [entries(result)].flat()) await recordAudit(txCtx, ctx.staff, e);
    return result;
  });
}
