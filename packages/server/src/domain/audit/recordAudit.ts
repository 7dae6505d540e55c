// The audit log (docs/adr/0021-staff-console.md): every staff write records who, when, what and
// the before/after, IN THE SAME TRANSACTION as the change (pass the transaction as ctx.db), so an
// entry exists exactly when the change committed. The table is append-only (a trigger refuses
// UPDATE/DELETE/TRUNCATE). Entries hold ids and changed values, not visitors' names or emails.
import type { DbOrTx } from '../../db/client.ts';
import { insertAuditEntry } from '../../db/repositories/audit.ts';
import type { Clock } from '../clock.ts';

/**
 * A staff user ({id, email}), an operator at the command line ({ cli: true }, with the OS user who
 * ran it when known), or who else caused a change ({ system: 'provider-webhook' }, 'account:7', …:
 * payments, docs/payments.md).
 */
export type AuditActor = { id: number; email: string } | { cli: true; osUser?: string } | { system: string; id?: undefined };

/** The actor column of an entry made at the command line (the console shows it as "command line"). */
export const CLI_ACTOR = 'cli';

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
  // Who ran a command is kept with the entry, as the token commands do (accounts/operatorAudit.ts).
  const osUser = 'cli' in actor && actor.osUser ? { os_user: actor.osUser } : null;
  await insertAuditEntry(ctx.db, {
    at: ctx.clock.now(),
    staffUserId: staff?.id ?? null,
    actor: staff ? staff.email : 'system' in actor ? actor.system : CLI_ACTOR,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId === undefined || e.entityId === null ? null : String(e.entityId),
    museumId: e.museumId ?? null,
    before: e.before ?? null,
    after: osUser ? { ...((e.after as object | null | undefined) ?? {}), ...osUser } : (e.after ?? null),
  });
}
