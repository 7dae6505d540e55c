// Token changes made at the command line (`atrium token create|rotate|revoke`) are audited like
// the console's (docs/console.md): the change and its entry in one transaction, so an entry
// exists exactly when the change committed. The actor is "cli"; the entry names the OS user who
// ran the command. Like every entry, it holds a token's last 4 characters, never the token.
import type { DbOrTx } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { recordAudit, type AuditEntry } from '../audit/recordAudit.ts';
import type { Clock } from '../clock.ts';

export async function auditedByOperator<C extends { db: DbOrTx; clock: Clock }, T>(
  ctx: C,
  osUser: string,
  run: (tx: C) => Promise<T>,
  entry: (result: T) => AuditEntry,
): Promise<T> {
  return transaction(ctx.db, async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const result = await run(txCtx);
    const e = entry(result);
    await recordAudit(txCtx, { cli: true, osUser }, e);
    return result;
  });
}
