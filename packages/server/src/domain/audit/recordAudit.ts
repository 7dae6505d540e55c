// The audit log (docs/adr/0021-staff-console.md): every staff write records who, when, what and
// the before/after, IN THE SAME TRANSACTION as the change (pass the transaction as ctx.db), so an
// entry exists exactly when the change committed. The table is append-only (a trigger refuses
// UPDATE/DELETE/TRUNCATE). Entries hold ids and changed values, not visitors' names or emails.
import type { DbOrTx } from '../../db/client.ts';
import { insertAuditEntry } from '../../db/repositories/audit.ts';
import type { Clock } from '../clock.ts';

/**
 * A staff user ({id, email}), an operator at the CLI ({ cli: true }), or who else caused a
 * change ({ system: 'provider-webhook' }, 'account:7', …: payments, docs/payments.md).
 */
export type AuditActor = { id: number; email: string } | { cli: true } | { system: string; id?: undefined };

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string | number | null;
  museumId?: number | null;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(ctx: { db: DbOrTx; clock: Clock }, actor: AuditActor, e: AuditEntry): Promise<void> {
  const staff = 'cli' in actor || 'system' in actor ? null : actor;
  await insertAuditEntry(ctx.db, {
    at: ctx.clock.now(),
    staffUserId: staff?.id ?? null,
    actor: staff ? staff.email : 'system' in actor ? actor.system : 'cli',
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId === undefined || e.entityId === null ? null : String(e.entityId),
    museumId: e.museumId ?? null,
    before: e.before ?? null,
    after: e.after ?? null,
  });
}
