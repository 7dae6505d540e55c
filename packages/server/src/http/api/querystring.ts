// Rails-style array parameters (go~mus): `by_museum_ids[]=1&by_museum_ids[]=2` arrive as the
// array `by_museum_ids`. A comma list (`by_museum_ids=1,2`) is accepted for any `*_ids`
// parameter too. A single `x[]=1` is still an array; `locale=de` stays a string while
// `locale[]=de` is an array, so the two forms can be told apart.
import { parse } from 'node:querystring';

export function parseQuery(raw: string): Record<string, string | string[]> {
  const parsed = parse(raw);
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const prev = out[key];
      const add = Array.isArray(value) ? value : [value];
      out[key] = Array.isArray(prev) ? [...prev, ...add] : add;
      continue;
    }
    if (rawKey.endsWith('_ids') && typeof value === 'string' && value.includes(',')) {
      out[rawKey] = value.split(',').filter((s) => s !== '');
      continue;
    }
    // A repeated scalar key keeps its last value, so `?page=1&page=2` is not a type error.
    out[rawKey] = Array.isArray(value) && !rawKey.endsWith('_ids') && rawKey !== 'reservations' ? value[value.length - 1]! : value;
  }
  return out;
}
