// Reading form and query fields: strings trimmed and capped, ids as positive integers.

/** A positive integer from a path, form or query value, or null. */
export function intParam(v: unknown): number | null {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  return /^\d{1,9}$/.test(s) && Number(s) > 0 ? Number(s) : null;
}

/** A whole number 0..999 from a quantity field; empty is 0; anything else null. */
export function quantityParam(v: unknown): number | null {
  const s = typeof v === 'string' ? v.trim() : '';
  if (s === '') return 0;
  return /^\d{1,3}$/.test(s) ? Number(s) : null;
}

/** A string field (first value if repeated), trimmed, at most `max` characters. */
export function field(obj: unknown, name: string, max = 500): string {
  const v = (obj as Record<string, unknown> | undefined)?.[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim().slice(0, max) : '';
}

/** A YYYY-MM-DD date field, or '' when absent or malformed. */
export function dateField(obj: unknown, name: string): string {
  const s = field(obj, name, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : '';
}

/**
 * A value computed once per input and kept (at most `limit`, then started afresh): the browsing
 * pages format the same slot times, day links and language links for every visitor, and Intl
 * formatting and URL parsing were a large share of a page's own work. Values are shared: read only.
 */
export function kept<A extends unknown[], V>(limit: number, key: (...a: A) => string, make: (...a: A) => V): (...a: A) => V {
  const kept = new Map<string, V>();
  return (...a: A) => {
    const k = key(...a);
    let v = kept.get(k);
    if (v === undefined) {
      if (kept.size >= limit) kept.clear();
      v = make(...a);
      kept.set(k, v);
    }
    return v;
  };
}
