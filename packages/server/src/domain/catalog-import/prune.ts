// Removing catalogue records by key (`atrium import --prune`, `atrium seed --remove-demo`):
// only records that carry a catalogue key (made by an import or the demo), never what was made
// through the API. A record with orders, reservations or requests is kept and reported, because
// orders must keep pointing at what was sold; so is one other records still use.
import type { Tx } from '../../db/client.ts';
import { allCatalogKeys, dropKey } from '../../db/repositories/imports/keys.ts';
import { deleteRecord, removable, usageOf } from '../../db/repositories/imports/prune.ts';
import { record, type Kind, type Summary } from './report.ts';

// Children before parents, so a parent's removal sees its children gone.
const ORDER: Kind[] = ['event_date', 'event', 'ticket', 'tour', 'closure', 'opening_season', 'quota', 'exhibition', 'museum'];

export interface Candidate {
  kind: Kind;
  key: string;
  id: number;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Why a record must stay (orders, reservations, requests, bookings), or null. */
async function bookings(tx: Tx, kind: Kind, id: number): Promise<string | null> {
  const u = await usageOf(tx, kind, id);
  const reasons: string[] = [];
  if (u.orders) reasons.push(plural(u.orders, 'order'));
  if (u.reservations) reasons.push(plural(u.reservations, 'reservation'));
  if (u.requests) reasons.push(plural(u.requests, 'request'));
  if (u.bookings) reasons.push(plural(u.bookings, 'booking'));
  if (u.tickets) reasons.push(`used by ${plural(u.tickets, 'ticket')}`);
  return reasons.length ? `has ${reasons.join(', ')}` : null;
}

/** Removes each candidate it can; reports what it removed and what it kept, with why. */
export async function removeRecords(tx: Tx, candidates: Candidate[], summary: Summary): Promise<void> {
  const sorted = [...candidates].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.key.localeCompare(b.key));
  for (const c of sorted) {
    if (!removable(c.kind)) continue;
    const why = await bookings(tx, c.kind, c.id);
    if (why) {
      summary.kept.push(`${c.kind} ${c.key} (#${c.id}): ${why}`);
      continue;
    }
    // A record still referenced fails alone, the rest of the import goes on.
    const { removed, usedBy } = await deleteRecord(tx, c.kind, c.id);
    if (usedBy !== undefined) {
      summary.kept.push(`${c.kind} ${c.key} (#${c.id}): still used by ${usedBy}`);
      continue;
    }
    await dropKey(tx, c.kind, c.key);
    if (removed) record(summary, c.kind, c.key, 'remove');
  }
}

/** Keyed records the file does not name (what --prune removes). */
export async function unnamed(tx: Tx, named: Set<string>): Promise<Candidate[]> {
  const rows = await allCatalogKeys(tx);
  return rows
    .filter((r) => removable(r.kind) && !named.has(`${r.kind}\u0000${r.key}`))
    .map((r) => ({ kind: r.kind as Kind, key: r.key, id: r.recordId }));
}
