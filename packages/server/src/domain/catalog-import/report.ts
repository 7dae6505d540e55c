// What an import did, or with --dry-run would do: counts per kind, one line per record created or
// changed (with the fields), and notes on what was deliberately left alone (changes made through
// the API, records --prune could not remove). Pure data, rendered by the command line.

export const KINDS = ['language', 'museum', 'opening_season', 'exhibition', 'quota', 'ticket', 'event', 'event_date', 'tour', 'closure'] as const;
export type Kind = (typeof KINDS)[number];

export interface Change {
  kind: Kind;
  key: string;
  action: 'create' | 'update' | 'remove';
  /** Fields that differ (updates only). */
  fields?: string[];
}

export interface Summary {
  counts: Record<Kind, { created: number; updated: number; unchanged: number; removed: number }>;
  changes: Change[];
  /** Left alone on purpose, with why: "quota main-slot 2026-12-24: capacity 30 set through the API (the file says 40)". */
  kept: string[];
  /** Dates of a recurrence that were not created, with why (closed day, closure, past). */
  skipped: string[];
  dryRun: boolean;
}

export function emptySummary(dryRun: boolean): Summary {
  const counts = Object.fromEntries(KINDS.map((k) => [k, { created: 0, updated: 0, unchanged: 0, removed: 0 }])) as Summary['counts'];
  return { counts, changes: [], kept: [], skipped: [], dryRun };
}

export function record(s: Summary, kind: Kind, key: string, action: Change['action'] | 'unchanged', fields?: string[]): void {
  const c = s.counts[kind];
  if (action === 'unchanged') {
    c.unchanged++;
    return;
  }
  c[action === 'create' ? 'created' : action === 'update' ? 'updated' : 'removed']++;
  s.changes.push({ kind, key, action, ...(fields ? { fields } : {}) });
}

const LABELS: Record<Kind, string> = {
  language: 'languages',
  museum: 'museums',
  opening_season: 'seasons',
  exhibition: 'exhibitions',
  quota: 'quotas',
  ticket: 'tickets',
  event: 'events',
  event_date: 'event dates',
  tour: 'tours',
  closure: 'closures',
};

/** Per kind: "tickets  1 created, 2 updated, 4 unchanged"; with `details`, every change too. */
export function formatSummary(s: Summary, details = false, maxLines = 50): string {
  const verb = s.dryRun ? { created: 'to create', updated: 'to update', removed: 'to remove' } : { created: 'created', updated: 'updated', removed: 'removed' };
  const out: string[] = [];
  for (const k of KINDS) {
    const c = s.counts[k];
    if (c.created + c.updated + c.unchanged + c.removed === 0) continue;
    const parts = [`${c.created} ${verb.created}`, `${c.updated} ${verb.updated}`, `${c.unchanged} unchanged`];
    if (c.removed) parts.push(`${c.removed} ${verb.removed}`);
    out.push(`  ${LABELS[k].padEnd(12)} ${parts.join(', ')}`);
  }
  if (!out.length) out.push('  (the file has no records)');
  if (details && s.changes.length) {
    out.push(s.dryRun ? 'plan:' : 'changes:');
    const sign = { create: '+', update: '~', remove: '-' };
    for (const c of s.changes.slice(0, maxLines)) {
      out.push(`  ${sign[c.action]} ${c.kind} ${c.key}${c.fields?.length ? ` (${c.fields.join(', ')})` : ''}`);
    }
    if (s.changes.length > maxLines) out.push(`  … and ${s.changes.length - maxLines} more`);
  }
  const list = (title: string, lines: string[]) => {
    if (!lines.length) return;
    out.push(title);
    for (const l of lines.slice(0, maxLines)) out.push(`  ${l}`);
    if (lines.length > maxLines) out.push(`  … and ${lines.length - maxLines} more`);
  };
  list('kept:', s.kept);
  list('recurring dates not created:', s.skipped);
  return out.join('\n') + '\n';
}
