// What every operation of the generated OpenAPI document says beyond its own route schema: a
// stable operationId, the statuses any route can answer (a wrong token is 401 everywhere, rate
// limits and a database outage reach every route), the headers those answers carry, 304 for the
// cached master data, and the real media type of binary downloads. Applied to the finished
// document (@fastify/swagger transformObject), so it documents behaviour without changing how
// answers are validated or serialized. The behaviour itself lives in http/api/plugins/*.

import { applyExamples } from './openapi-examples.ts';

type Obj = Record<string, any>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;
const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const ERROR = { $ref: '#/components/schemas/ErrorBody' };

const HEADERS: Record<string, Obj> = {
  'X-Request-Id': { description: 'The request id (yours if you sent a valid one); also `request_id` in error bodies.', schema: { type: 'string' } },
  ETag: { description: 'Weak validator of the exact bytes sent; send it back as If-None-Match.', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, max-age=N` for master data, `no-store` for live data and errors.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds after which the call may succeed.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Idempotent-Replayed': { description: '`true` when this answer is the stored answer of an earlier call with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const STANDARD: Record<string, string> = {
  '401': 'Token missing, expired, revoked, invalid or of another instance (a wrong token is refused on public routes too).',
  '403': 'The token class or its rights do not allow this call.',
  '404': 'Unknown, or not visible to this token.',
  '413': 'Body larger than the limit.',
  '422': 'Validation failed: `error` says what, `errors` lists field messages.',
  '429': 'Rate limit exceeded: wait Retry-After seconds.',
  '500': 'Unexpected server error, logged under the request id: retry with backoff.',
  '503': 'Temporarily unavailable (database unreachable, shutting down, overloaded): retry after Retry-After.',
};

/** Where the rule below reads badly (go~mus paths are not all REST-shaped), the id is named here. */
const NAMED: Record<string, string> = {
  'PUT /api/v4/customers': 'updateCustomerByForeignId',
  'GET /api/v4/museums/{id}/opening_hours': 'getMuseumOpeningHours',
  'GET /api/v4/orders/barcode/{code}': 'getOrderByBarcode',
  'GET /api/v4/documents/{id}/download': 'downloadDocument',
  'POST /api/v4/orders/{id}/cancellations': 'cancelOrderItems',
  'GET /api/v4/tickets/capacities': 'getTicketCapacities',
  'GET /api/v4/tickets/calendar': 'getTicketCalendar',
  'POST /api/v4/tickets/reservations': 'createReservationGomusPath',
  'PUT /api/v4/tickets/reservations/{reservation_token}': 'updateReservationGomusPath',
  'DELETE /api/v4/tickets/reservations/{reservation_token}': 'deleteReservationGomusPath',
  'GET /api/v4/tours/{id}/start_times/{date}': 'listTourStartTimesOfDate',
  'GET /api/v4/events/languages': 'listEventLanguages',
  'GET /api/v4/tours/languages': 'listTourLanguages',
};

/** A readable, stable id: `listTickets`, `getTicket`, `createOrder`, `finalizeOrder`, `getTicketCapacity`. */
export function operationIdOf(method: string, path: string): string {
  const named = NAMED[`${method.toUpperCase()} ${path}`];
  if (named) return named;
  const v3 = path.startsWith('/api/v3/');
  const segs = path.replace(/^\/api\/v\d+\//, '').split('/').filter(Boolean);
  const words: string[] = [];
  let verb = method === 'get' ? 'get' : method === 'post' ? 'create' : method === 'delete' ? 'delete' : method === 'head' ? 'head' : 'update';
  segs.forEach((seg, i) => {
    if (seg.startsWith('{')) return;
    const name = camel(seg);
    const nextIsParam = segs[i + 1]?.startsWith('{') ?? false;
    const afterParam = i > 0 && segs[i - 1]!.startsWith('{');
    const last = i === segs.length - 1;
    // POST /orders/{id}/finalize: the last word after a record is the action.
    if (method === 'post' && last && afterParam && !isCollection(seg)) {
      verb = name;
      return;
    }
    words.push(nextIsParam || (last && afterParam && !isCollection(seg)) ? singular(name) : name);
  });
  const lastSeg = segs[segs.length - 1] ?? '';
  if (method === 'get' && !lastSeg.startsWith('{') && isCollection(lastSeg)) verb = 'list';
  if (method === 'post' && verb === 'create' && words.length > 0) words[words.length - 1] = singular(words[words.length - 1]!);
  const id = verb + words.map(pascal).join('');
  return v3 ? `v3${pascal(id)}` : id;
}

const camel = (s: string) => s.replace(/[-_.]+(\w)/g, (_m, c: string) => c.toUpperCase());
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
function singular(s: string): string {
  if (/ies$/.test(s)) return s.replace(/ies$/, 'y');
  if (/(ss|us)$/.test(s)) return s;
  if (/(ches|shes|xes|sses)$/.test(s)) return s.replace(/es$/, '');
  return s.replace(/s$/, '');
}
/** Plural nouns name collections; `capacity`, `calendar`, `whoami`, `finalize` do not. */
function isCollection(seg: string): boolean {
  return /s$/.test(seg) && !/(ss|us)$/.test(seg);
}

export function shapeDocument(doc: Obj): Obj {
  doc.info = { ...doc.info, license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' } };
  doc.components = { ...doc.components, headers: { ...(doc.components?.headers ?? {}), ...HEADERS } };
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries<Obj>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Obj | undefined;
      if (!op) continue;
      shapeOperation(op, method, path);
      const other = seen.get(op.operationId);
      if (other) throw new Error(`operationId ${op.operationId} of ${method.toUpperCase()} ${path} is also ${other}: set schema.operationId on one`);
      seen.set(op.operationId, `${method.toUpperCase()} ${path}`);
    }
  }
  return doc;
}

function shapeOperation(op: Obj, method: string, path: string): void {
  op.operationId ??= operationIdOf(method, path);
  if (!op.summary) op.summary = `${method.toUpperCase()} ${path}`;
  if (!op.description) op.description = op.summary;
  const classes: string[] = op['x-token-classes'] ?? [];
  const cache: string | undefined = op['x-cache'];
  delete op['x-cache'];
  const responses: Obj = (op.responses ??= {});
  const add = (status: string, extra: Obj = {}) => {
    responses[status] ??= { description: STANDARD[status], content: { 'application/json': { schema: ERROR } }, ...extra };
  };
  add('401');
  // Every class may be refused somewhere: scanner (entry) tokens reach only the scan routes.
  add('403');
  if (/\{[^}]+\}/.test(path)) add('404');
  if (op.requestBody) {
    add('413');
    add('422');
  }
  add('429', { headers: { 'Retry-After': ref('Retry-After'), 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') } });
  add('500');
  add('503', { headers: { 'Retry-After': ref('Retry-After') } });
  for (const [status, res] of Object.entries<Obj>(responses)) {
    const headers: Obj = (res.headers ??= {});
    headers['X-Request-Id'] ??= ref('X-Request-Id');
    if (status.startsWith('2')) {
      headers['RateLimit-Limit'] ??= ref('RateLimit-Limit');
      headers['RateLimit-Remaining'] ??= ref('RateLimit-Remaining');
      headers['RateLimit-Reset'] ??= ref('RateLimit-Reset');
      headers['Cache-Control'] ??= ref('Cache-Control');
      if (cache && cache !== 'live' && status === '200') headers.ETag ??= ref('ETag');
      if (WRITES.has(method)) headers['Idempotent-Replayed'] ??= ref('Idempotent-Replayed');
    }
    if (status === '202' || status === '409') headers['Retry-After'] ??= ref('Retry-After');
    binaryMediaType(res);
  }
  applyExamples(op);
  if (cache && cache !== 'live' && method === 'get') {
    responses['304'] ??= {
      description: 'Not modified: the If-None-Match validator still matches; no body.',
      headers: { ETag: ref('ETag'), 'Cache-Control': ref('Cache-Control'), 'X-Request-Id': ref('X-Request-Id') },
    };
    addHeaderParam(op, 'If-None-Match', 'An ETag from an earlier answer: 304 without a body when nothing changed.');
  }
  if (WRITES.has(method) && classes.some((c) => c !== 'anonymous')) {
    addHeaderParam(op, 'Idempotency-Key', 'Makes the call safe to resend (with a token): the same key and body replay the first answer for 24 hours; the same key still in flight is 409, with another body 422.');
  }
}

/** A `format: binary` body is not JSON: document it as the file types the route sends. */
function binaryMediaType(res: Obj): void {
  const json = res.content?.['application/json'];
  if (!json || json.schema?.format !== 'binary') return;
  const schema = { type: 'string', format: 'binary' };
  res.content = Object.fromEntries(
    ['application/pdf', 'application/xml', 'image/png', 'image/jpeg', 'application/octet-stream'].map((t) => [t, { schema }]),
  );
}

/** Request headers the plugins read (documented here, never validated by a route's headers schema). */
export const PLUGIN_HEADERS = ['If-None-Match', 'Idempotency-Key'];

function addHeaderParam(op: Obj, name: string, description: string): void {
  const params: Obj[] = (op.parameters ??= []);
  if (params.some((p) => p.in === 'header' && String(p.name).toLowerCase() === name.toLowerCase())) return;
  params.push({ in: 'header', name, required: false, description, schema: { type: 'string' } });
}
