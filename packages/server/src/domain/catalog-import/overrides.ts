// Per-date capacity overrides of a quota, merged three-way (docs/adr/0014): the file's value, the
// database's, and what the last import wrote (catalog_applied_overrides, migration 0013).
//   - the file changed a date since the last import, or names it for the first time: file wins;
//   - the file did not change it but the database differs (set or removed through the API):
//     the API's change is kept, and reported;
//   - the file no longer names a date the last import wrote: removed, unless the API changed it.
// Dates neither the file nor an earlier import wrote (made through the API) are never touched.
// The old import deleted every override of a named quota and wrote the file's again: that is
// what silently undid capacity changes made through the API.
import { deleteQuotaOverride, upsertQuotaOverride } from '../../db/repositories/catalog/quotas.ts';
import { appliedOverridesByDate, quotaOverridesByDate, setAppliedOverride } from '../../db/repositories/imports/records.ts';
import type { Applier } from './apply.ts';

type Cap = number | null;
const show = (c: Cap | undefined) => (c === undefined ? 'no override' : c === null ? 'closed' : `capacity ${c}`);

export async function applyOverrides(a: Applier, quotaKey: string, quotaId: number, file: Array<{ date: string; capacity: Cap }>): Promise<void> {
  const { tx } = a;
  const db = await quotaOverridesByDate(tx, quotaId);
  const base = await appliedOverridesByDate(tx, quotaId);
  const wanted = new Map(file.map((o) => [o.date, o.capacity]));
  let changed = false;
  const setDb = async (date: string, capacity: Cap | undefined) => {
    changed = true;
    if (capacity === undefined) await deleteQuotaOverride(tx, quotaId, date);
    else await upsertQuotaOverride(tx, quotaId, date, capacity);
  };
  const setBase = (date: string, capacity: Cap | undefined) => setAppliedOverride(tx, quotaId, date, capacity);
  const get = (m: Map<string, Cap>, date: string) => (m.has(date) ? m.get(date)! : undefined);
  for (const date of new Set([...wanted.keys(), ...base.keys()])) {
    const [f, b, d] = [get(wanted, date), get(base, date), get(db, date)];
    const kept = () => a.summary.kept.push(`quota ${quotaKey} ${date}: ${show(d)} set through the API (the file says ${show(f)})`);
    if (f === undefined) {
      // The file dropped a date an earlier import wrote.
      if (d === b) await setDb(date, undefined);
      else if (d !== undefined) kept();
      await setBase(date, undefined);
    } else if (!base.has(date) || f !== b) {
      if (f !== d) await setDb(date, f);
      await setBase(date, f);
    } else if (d !== b) kept();
  }
  if (changed) markOverrides(a, quotaKey);
}

/** Overrides are part of the quota: a change to them makes the quota "updated" in the report. */
function markOverrides(a: Applier, quotaKey: string): void {
  const c = a.summary.changes.find((x) => x.kind === 'quota' && x.key === quotaKey);
  if (c) {
    if (c.action === 'update' && !c.fields?.includes('overrides')) c.fields = [...(c.fields ?? []), 'overrides'];
    return;
  }
  a.summary.counts.quota.unchanged--;
  a.summary.counts.quota.updated++;
  a.summary.changes.push({ kind: 'quota', key: quotaKey, action: 'update', fields: ['overrides'] });
}
