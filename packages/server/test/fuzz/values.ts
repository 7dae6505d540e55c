// Value arbitraries: valid values built from a JSON schema (preferring real ids, dates and slot
// times from the seeded catalogue where a field's name says what it refers to) and hostile values
// for the invalid half of the run.
import fc from 'fast-check';
import type { Schema } from './contract.ts';
import type { Pools } from './fixtures.ts';

/** Which pool a parameter or field name refers to (undefined: no hint, the schema decides). */
export function hintOf(name: string, op?: { path: string }): string | undefined {
  if (op) {
    // Path parameters take their meaning from the collection in front of them.
    const m = new RegExp(`/([a-z_]+)/\\{${name}\\}`).exec(op.path);
    if (name === 'date') return 'day';
    if (name === 'event_id') return 'event';
    if (name === 'reservation_token') return 'reservation';
    if (name === 'code') return 'barcode';
    if (m) {
      const coll = m[1]!;
      const map: Record<string, string> = {
        museums: 'museum', exhibitions: 'exhibition', tickets: 'ticket', events: 'event', dates: 'date',
        tours: 'tour', quotas: 'quota', customers: 'customer', orders: 'order',
      };
      if (map[coll]) return map[coll];
    }
  }
  const n = name.replace(/^by_/, '').replace(/_ids?$/, '');
  if (['museum', 'exhibition', 'ticket', 'event', 'tour', 'quota', 'language', 'customer', 'date'].includes(n) && name !== 'date') return n;
  if (name === 'id') return 'item';
  if (name === 'foreign_id') return 'foreign';
  if (name === 'reservations') return 'reservation';
  if (name === 'locale') return 'locale';
  if (['date', 'valid_at', 'valid_from', 'valid_until'].includes(name)) return 'day';
  if (['time', 'start_time', 'start_at', 'end_at', 'updated_since'].includes(name)) return 'time';
  if (name === 'email') return 'email';
  return undefined;
}

function pool(hint: string, pools: Pools): Array<number | string> | undefined {
  switch (hint) {
    case 'item':
      return [...pools.ids.ticket!, ...pools.ids.date!, ...pools.ids.tour!];
    case 'foreign':
      return [...pools.ids.order_foreign!, ...pools.ids.customer_foreign!, 'fz-new-foreign'];
    case 'day':
      return pools.dates;
    case 'time':
      return pools.times;
    case 'email':
      return ['a@example.org', 'fuzz@example.com'];
    default:
      return pools.ids[hint];
  }
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/** Valid-looking values for a schema; `name` is the field or parameter name (for hints). */
export function validValue(schema: Schema, name: string, pools: Pools, op?: { path: string }): fc.Arbitrary<unknown> {
  const hint = hintOf(name, op);
  const real = hint ? pool(hint, pools) : undefined;
  const fromSchema = bySchema(schema, name, pools);
  if (!real || real.length === 0) return fromSchema;
  const t = typeOf(schema);
  let usable = real.filter((v) => (t === 'integer' ? typeof v === 'number' : t === 'string' ? typeof v === 'string' : true));
  if (t === 'array') return fc.oneof({ arbitrary: fc.subarray(real, { minLength: 1, maxLength: Math.min(3, real.length) }), weight: 4 }, { arbitrary: fromSchema, weight: 1 });
  if (t === 'string' && real.every((v) => typeof v === 'number')) usable = real.map(String);
  if (usable.length === 0) return fromSchema;
  return fc.oneof({ arbitrary: fc.constantFrom(...usable), weight: 4 }, { arbitrary: fromSchema, weight: 1 });
}

function bySchema(schema: Schema, name: string, pools: Pools): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alts = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alts) return fc.oneof(...alts.map((s) => validValue(s, name, pools)));
  switch (typeOf(schema)) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = Math.min(schema.maximum ?? 1000, Math.max(min, 1000));
      return typeOf(schema) === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string': {
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      const minLength = Math.min(schema.minLength ?? 0, maxLength);
      if (schema.pattern) {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
      }
      return fc.string({ minLength, maxLength });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 3, Math.max(minLength, 3));
      return fc.array(validValue(schema.items ?? {}, name, pools), { minLength, maxLength });
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, validValue(s, k, pools)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) });
    }
    default:
      // An untyped schema (e.g. `locale`, string or array): a string from hints or a short word.
      return fc.oneof(fc.constantFrom('de', 'en'), fc.string({ maxLength: 8 }));
  }
}

const NASTY = [
  -1, 0, -2147483649, 2147483648, 9007199254740993, 1e308, -1e308, 1.5, -0.5, true, false, null, [], {}, [1, 2], { a: 1 },
  '', ' ', '0', '-1', '1e999', 'NaN', 'Infinity', '0x10', '1,2,3', '1.0', "' OR '1'='1", '1; DROP TABLE orders; --',
  "'); select pg_sleep(5); --", '\\', '%', '%00', '%zz', '%E0%A4%A', '\u0000', 'a\u0000b', '../../etc/passwd', '\uD800',
  '\uFFFF', '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧', 'مرحبا', '\u202Eevil', 'e\u0301', '<script>alert(1)</script>', '${jndi:ldap://x}', '{{7*7}}',
  '__proto__', 'constructor', '2024-02-30', '9999-99-99', '0000-00-00', '2024-01-01T25:61:00Z', '1970-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z', 'tomorrow', '10:00', '\r\nX-Injected: 1', '\t', '​', 'de; drop', 'xx-XX',
];

/** Wrong types, edge numbers, odd strings and encodings, SQL metacharacters, unicode, long strings. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY), weight: 6 },
  { arbitrary: fc.integer({ min: 501, max: 5000 }).map((n) => 'ä'.repeat(n)), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
  { arbitrary: fc.oneof(fc.double(), fc.integer({ min: -(2 ** 40), max: 2 ** 40 })), weight: 1 },
  { arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }), weight: 1 },
);

/** Raw query fragments with odd encodings, appended as they are. */
export const rawQuery = fc.constantFrom(
  '%zz=1', 'a=%E0%A4%A', 'per_page=%00', '%ff%fe=1', 'x=%C0%AF', '&&&', '=', 'page=1&page=2', 'page[]=1',
  'by_museum_ids[]=&by_museum_ids[]=1', 'by_museum_ids=1,,2', 'locale[]=de&locale[]=%F0%9F%98%80', 'q=%27%3B--',
  'per_page=1e3', 'page=0x1', `q=${'%41'.repeat(300)}`,
);
