// An audit entry as a reader sees it: who (a staff email, "command line" with the OS user who
// ran it, or a system actor), what in plain words, on which object, and the changed fields as
// rows of field / before / after. Nested values are flattened to dotted field names, so nothing
// is shown as raw JSON; a field that is the same before and after is left out.
import type { Translate } from '../i18n.ts';

export interface AuditRowIn {
  id: number;
  at: Date;
  staffUserId: number | null;
  actor: string;
  action: string;
  entityType: string;
  entityId: string | null;
  museumId: number | null;
  before: unknown;
  after: unknown;
}

export interface Change { field: string; before: string; after: string }

export interface AuditEntryView {
  id: number;
  at: Date;
  who: string;
  what: string;
  /** The stored action name, for the filter and for actions without a label. */
  action: string;
  entity: string;
  /** A console page of the object, when there is one. */
  link: string | null;
  museumId: number | null;
  changes: Change[];
  /** Both sides empty: nothing but the action was recorded. */
  bare: boolean;
  hasBefore: boolean;
}

const MAX_FIELDS = 200;

/** Leaf values by dotted path ("after.weekly.monday"); arrays of plain values stay one field. */
function flatten(v: unknown, prefix: string, out: Map<string, unknown>) {
  if (out.size >= MAX_FIELDS) return;
  if (v !== null && typeof v === 'object' && !(Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))) {
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i + 1), x] as const) : Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) out.set(prefix, v);
    for (const [k, x] of entries) flatten(x, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.set(prefix, v);
}

function text(t: Translate, v: unknown): string {
  if (v === undefined || v === null || v === '') return t('audit.empty');
  if (typeof v === 'boolean') return t(v ? 'audit.yes' : 'audit.no');
  if (Array.isArray(v)) return v.length ? v.map((x) => (x === null ? t('audit.empty') : String(x))).join(', ') : t('audit.empty');
  if (typeof v === 'object') return t('audit.empty');
  return String(v);
}

const label = (t: Translate, key: string, fallback: string) => {
  const s = t(key);
  return s === key ? fallback : s;
};

export function whoOf(t: Translate, e: Pick<AuditRowIn, 'actor' | 'staffUserId' | 'after'>): string {
  if (e.staffUserId !== null) return e.actor;
  const osUser = e.after && typeof e.after === 'object' ? (e.after as Record<string, unknown>).os_user : undefined;
  if (e.actor === 'cli') return typeof osUser === 'string' && osUser ? t('audit.who.cli.user', { user: osUser }) : t('audit.who.cli');
  return t('audit.who.system', { name: e.actor });
}

const LINKS: Record<string, (id: string) => string> = {
  order: (id) => `/console/orders/${id}`,
  account: (id) => `/console/partners/${id}`,
  staff_user: () => '/console/staff',
};

export function auditEntryView(t: Translate, e: AuditRowIn): AuditEntryView {
  const before = new Map<string, unknown>();
  const after = new Map<string, unknown>();
  flatten(e.before, '', before);
  flatten(e.after, '', after);
  // Who ran a command is shown as "who", not as a changed field.
  after.delete('os_user');
  const fields = [...new Set([...before.keys(), ...after.keys()])].filter((f) => f !== '');
  const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  const changes = fields
    .filter((f) => JSON.stringify(before.get(f)) !== JSON.stringify(after.get(f)))
    // A new object's empty fields say nothing.
    .filter((f) => before.has(f) || !empty(after.get(f)))
    .map((f) => ({ field: f.replace(/_/g, ' '), before: before.has(f) ? text(t, before.get(f)) : '', after: after.has(f) ? text(t, after.get(f)) : '' }));
  const entity = label(t, `audit.entity.${e.entityType}`, e.entityType.replace(/_/g, ' '));
  const link = e.entityId && /^\d{1,12}$/.test(e.entityId) ? (LINKS[e.entityType]?.(e.entityId) ?? null) : null;
  return {
    id: e.id,
    at: e.at,
    who: whoOf(t, e),
    what: label(t, `audit.action.${e.action}`, e.action),
    action: e.action,
    entity: e.entityId ? `${entity} #${e.entityId}` : entity,
    link,
    museumId: e.museumId,
    changes,
    bare: fields.length === 0,
    hasBefore: e.before !== null && e.before !== undefined,
  };
}

/** The actions offered in the "what" filter: every action with a label, by label. */
export function actionChoices(t: Translate, keys: string[]): Array<{ value: string; label: string }> {
  return keys
    .filter((k) => k.startsWith('audit.action.'))
    .map((k) => ({ value: k.slice('audit.action.'.length), label: t(k) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
