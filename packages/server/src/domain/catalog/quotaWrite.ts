// Quotas (staff): create, update, per-date overrides. A quota stays in its museum: tickets of that
// museum draw from it, so moving it would silently break the same-museum rule.
import type { DbOrTx, Tx } from '../../db/client.ts';
import { insertQuota, lockQuota, updateQuota, type Quota } from '../../db/repositories/catalog/quotas.ts';
import { transaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { inMuseumScope } from '../principal.ts';
import { overridesByQuota, ticketIdsByQuota } from '../../db/repositories/catalog/related.ts';
import { quotaKindRefs, quotaRules } from './rules.ts';
import { quotaView, type View } from './views.ts';
import { assertStaff, defined, failIfAny, writableMuseum } from './writeSupport.ts';

export interface QuotaInput {
  museum_id?: number;
  name?: string;
  kind?: 'slot' | 'day';
  capacity?: number;
}

export async function renderQuota(db: DbOrTx, q: Quota): Promise<View> {
  const [overrides, ticketIds] = await Promise.all([overridesByQuota(db, [q.id]), ticketIdsByQuota(db, [q.id])]);
  return quotaView(q, { overrides: overrides.get(q.id) ?? [], ticketIds: ticketIds.get(q.id) ?? [] });
}

/** The quota, locked, when it is in the caller's scope. */
export async function writableQuota(ctx: Ctx, tx: Tx, id: number) {
  const q = await lockQuota(tx, id);
  if (!q || !inMuseumScope(ctx.principal, q.museumId)) throw notFound('quota');
  return q;
}

export async function saveQuota(ctx: Ctx, input: QuotaInput & { id?: number }): Promise<View> {
  assertStaff(ctx);
  const { id, museum_id, ...changes } = input;
  const row = await transaction(ctx.db, async (tx) => {
    if (id === undefined) {
      await writableMuseum(ctx, tx, museum_id);
      const q = { kind: 'slot', ...defined(changes) };
      failIfAny('quota', quotaRules(q));
      return insertQuota(tx, { museumId: museum_id!, name: q.name!, kind: q.kind, capacity: q.capacity! });
    }
    const cur = await writableQuota(ctx, tx, id);
    const q = { name: cur.name, kind: cur.kind, capacity: cur.capacity, ...defined(changes) };
    failIfAny('quota', [...quotaRules(q), ...(q.kind !== cur.kind ? await quotaKindRefs(tx, id, q.kind) : [])]);
    return updateQuota(tx, id, { name: q.name, kind: q.kind, capacity: q.capacity, updatedAt: ctx.clock.now() });
  });
  return renderQuota(ctx.db, row);
}
