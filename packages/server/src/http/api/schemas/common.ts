// Schemas shared by every resource: the spec's error bodies (7.2), pagination and list meta.
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/**
 * A value or null, as one JSON Schema `type` list (`["string", "null"]`) where the value has a
 * single type. Ajv runs with `coerceTypes: 'array'`, and both anyOf orders go wrong: with the value
 * first, null is coerced into the value's type (0, ""); with null first, a one-element array such
 * as `["x"]` passes unchanged, so a handler got an array where the schema promised a string (a 500
 * the contract fuzzer found with `{"reason": ["x"]}`). With a type list Ajv keeps null as null and
 * unwraps `["x"]` to "x". Schemas without a single type (unions, records) keep anyOf, null first.
 */
export function Nullable<T extends TSchema>(t: T): TUnsafe<Static<T> | null> {
  const type = (t as { type?: unknown }).type;
  if (typeof type === 'string') return Type.Unsafe<Static<T> | null>({ ...t, type: [type, 'null'] });
  return Type.Unsafe<Static<T> | null>(Type.Union([Type.Null(), t]));
}

/**
 * A string from a fixed list: `{"type": "string", "enum": […]}` in the document as before, typed as
 * the union of its values, so a validated body reaches a verb with the narrow type it declares.
 */
export function StringEnum<const V extends readonly string[]>(values: V): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>(Type.String({ enum: [...values] }));
}

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Short human-readable message (spec 7.2).' }),
    errors: Type.Optional(
      Type.Array(Type.String(), { description: 'Field messages for validation of nested objects.' }),
    ),
    code: Type.String({ description: 'Stable machine code, see docs/errors.md.' }),
    request_id: Type.String({ description: 'Also in the X-Request-Id header.' }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request (for example invalid JSON).',
  401: 'Token missing, expired, revoked, invalid or of another instance.',
  403: 'Token valid but lacking the permission.',
  404: 'Record not found, outside the caller scope, or route invalid.',
  405: 'Method not allowed on this path.',
  409: 'A request with the same Idempotency-Key is still in flight.',
  410: 'Resource existed but is no longer available.',
  413: 'Body too large.',
  415: 'Body is not application/json.',
  422: 'Validation or business-rule error.',
  429: 'Rate limit exceeded.',
  502: 'The payment provider refused or did not answer.',
  503: 'Service temporarily unavailable (for example database down).',
  507: 'Insufficient storage: the account upload quota, or the server is low on disk space.',
};

const ref = Type.Unsafe<{ error: string; errors?: string[]; code: string; request_id: string }>({
  $ref: 'ErrorBody#',
});

/** Error responses of a route, for validation of what we send and for the OpenAPI document. */
export function errorResponses(...codes: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const c of codes) out[c] = { ...ref, description: ERROR_TEXT[c] ?? 'Error' } as TSchema;
  return out;
}

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, default 1.' })),
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Records per page, default 25; capped at 100 with a token and 25 without.',
    }),
  ),
};

export const ListMeta = Type.Object({
  total_count: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
});

/** Accepts `ids[]=1&ids[]=2`, `ids=1,2` and `ids=1` (normalised by the querystring parser). */
export const IdList = Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 500 });

export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const IdParam = Type.Object({ id: Id });
